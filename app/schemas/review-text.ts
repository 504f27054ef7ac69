/**
 * The words of the pre-enrolment review (language, literacy, numeracy and digital literacy):
 * groups, outcomes and messages. Zod-free and server-free, so the review page, the roster and
 * the admin pages share them with the model without pulling either into the browser.
 */

export const REVIEW_GROUPS = ["reading", "writing", "numeracy", "digital"] as const;

/** How many choices the question form offers (the schema takes 2 to 6). */
export const REVIEW_CHOICE_SLOTS = 6;
export type ReviewGroupKey = (typeof REVIEW_GROUPS)[number];

export const REVIEW_GROUP_LABELS: Record<ReviewGroupKey, string> = {
  reading: "Reading",
  writing: "Writing",
  numeracy: "Numeracy",
  digital: "Digital",
};

export const REVIEW_OUTCOMES = ["suitable", "support", "refer"] as const;
export type ReviewOutcomeKey = (typeof REVIEW_OUTCOMES)[number];

export const REVIEW_OUTCOME_LABELS: Record<ReviewOutcomeKey, string> = {
  suitable: "Suitable",
  support: "Suitable with support",
  refer: "Refer to staff",
};

/** The first line of the advice for each outcome; the groups' own advice follows it. */
export const REVIEW_HEADLINES: Record<ReviewOutcomeKey, string> = {
  suitable: "You are suitable for this course. You can go ahead and enrol.",
  support: "You are suitable for this course with support. We will arrange the support below with your trainer.",
  refer: "Please talk to our staff before this course. An enrolment is held until a staff member has spoken with you.",
};

export const REVIEW_STATUS_LABELS = {
  awaiting: "Seat held: review not taken",
  referred: "Seat held: staff to decide",
  confirmed: "Confirmed",
} as const;

export const REVIEW_KINDS = ["choice", "numeric"] as const;
export const REVIEW_KIND_LABELS = { choice: "Multiple choice", numeric: "Numeric answer" } as const;

export const REVIEW_NOT_REQUIRED = "This course does not need a pre-enrolment review.";
export const REVIEW_EMPTY = "Answer the questions before you submit the review.";
export const REVIEW_ANSWER_EVERY = "Answer every question before you submit the review.";
export const REVIEW_CHOOSE_ONE = "Choose one answer";
export const REVIEW_NUMBER = "Enter a number, e.g. 2.5";
export const REVIEW_UNKNOWN_QUESTION = "The review has an answer to a question it does not ask.";
/** Why a retired question cannot be changed: it stays as it was asked. */
export const REVIEW_RETIRED_UNCHANGED = "This question is retired and stays as it was asked; add a new question instead.";
/** How long a seat stays held for a review never taken before the enrolment is withdrawn (the review-holds job). */
export const REVIEW_HOLD_DAYS = 14;
export const REVIEW_HOLD_RELEASED = `Withdrawn: the seat was held ${REVIEW_HOLD_DAYS} days for a pre-enrolment review that was not taken`;
export const REVIEW_NO_QUESTIONS = "The review has no questions yet: please contact our office to enrol.";
export const REVIEW_SAVED = "Your review is saved.";
export const REVIEW_SEAT_HELD = "Your seat is held. Take the pre-enrolment review to confirm your enrolment.";
export const REVIEW_REFERRED = "Your seat is held until our staff have talked with you about your review.";
export const REVIEW_OVERRIDDEN = "Review outcome changed";
export const REVIEW_NOT_ON_ENROLLMENT = "This enrolment has no pre-enrolment review.";
export const REVIEW_QUESTION_ADDED = "Question added";
export const REVIEW_QUESTION_RETIRED = "Question retired: past answers keep it";
export const REVIEW_QUESTION_CHANGED = "Question changed: the old wording is retired, past answers keep it";
export const REVIEW_THRESHOLDS_SAVED = "Thresholds and advice saved";

/** What a trainer reads of the review on a roster: the outcome and the groups needing support. */
export function reviewSummary(outcome: ReviewOutcomeKey | null, support: readonly ReviewGroupKey[]): string {
  if (!outcome) return "Review not taken";
  const needs = support.map((g) => REVIEW_GROUP_LABELS[g].toLowerCase());
  return needs.length ? `${REVIEW_OUTCOME_LABELS[outcome]}: ${needs.join(", ")}` : REVIEW_OUTCOME_LABELS[outcome];
}
