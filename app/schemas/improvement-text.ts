/**
 * The improvement register's and the questionnaires' value lists and words, zod-free and
 * server-free, so the pages' browser code can read them (the schemas are in improvement.ts and
 * questionnaire.ts; the column types are in db/schema-improvement.ts, which these lists must match).
 */
import type { ImprovementSource, ImprovementStatus, QuestionKind, QuestionnaireAudience } from "#db/schema-improvement";

/** Where an improvement action comes from; source_id names the record there. */
export type { ImprovementSource, ImprovementStatus, QuestionKind, QuestionnaireAudience };
export const IMPROVEMENT_SOURCES = ["complaint", "appeal", "validation", "questionnaire", "audit", "other"] as const satisfies readonly ImprovementSource[];
export const IMPROVEMENT_SOURCE_LABELS: Record<ImprovementSource, string> = {
  complaint: "Complaint",
  appeal: "Appeal",
  validation: "Validation finding",
  questionnaire: "Questionnaire",
  audit: "Audit",
  other: "Other",
};

export const IMPROVEMENT_STATUSES = ["open", "in_progress", "closed"] as const satisfies readonly ImprovementStatus[];
export const IMPROVEMENT_STATUS_LABELS: Record<ImprovementStatus, string> = { open: "Open", in_progress: "In progress", closed: "Closed" };

export const IMPROVEMENT_CLOSE_NEEDS_EVIDENCE = "Closing an action needs what was done and its closure evidence";
export const IMPROVEMENT_CLOSED_LOCKED = "This action is closed; its record stands";

/** Who a questionnaire is for. */
export const QUESTIONNAIRE_AUDIENCES = ["learner", "employer"] as const satisfies readonly QuestionnaireAudience[];
export const QUESTIONNAIRE_AUDIENCE_LABELS: Record<QuestionnaireAudience, string> = { learner: "Learner", employer: "Employer" };

export const QUESTION_KINDS = ["rating", "text"] as const satisfies readonly QuestionKind[];
export const QUESTION_KIND_LABELS: Record<QuestionKind, string> = { rating: "Rating, 1 to 5", text: "Free text" };

/** The rating scale's ends and their words. */
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const RATING_WORDS: Record<number, string> = { 1: "Strongly disagree", 2: "Disagree", 3: "Neutral", 4: "Agree", 5: "Strongly agree" };
/** A single rating at or below this is a low score, whatever the average. */
export const LOW_RATING = 2;
/** The low-average threshold a new audience starts with (an admin changes it). */
export const DEFAULT_LOW_AVERAGE = 3;

export const QUESTIONNAIRE_ALREADY_ANSWERED = "This questionnaire has already been answered. Thank you.";
export const QUESTIONNAIRE_UNKNOWN_LINK = "This questionnaire link is not valid. Check that the whole link from the email was opened.";
/**
 * How long a questionnaire link works after its invitation is written: long enough for a learner
 * back on site to answer in a quiet week, short enough that a link in an old mailbox stops being
 * a way to add answers (docs/decisions/031-improvement-register-and-questionnaires.md).
 */
export const QUESTIONNAIRE_LINK_DAYS = 60;
export const QUESTIONNAIRE_EXPIRED = `This questionnaire link has expired: each link works for ${QUESTIONNAIRE_LINK_DAYS} days after it is sent. Nothing was recorded.`;
export const TOO_MANY_QUESTIONNAIRES = "Too many questionnaires have been sent from your network. Please wait an hour and try again.";
export const QUESTIONNAIRE_THANKS = "Thank you: your answers were received. They are read only as totals, never with your name.";
