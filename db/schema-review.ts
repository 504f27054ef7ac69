import type { ColumnType } from "kysely";

/**
 * The tables of the pre-enrolment review (migration 2026-11-29T0300): the shared question bank,
 * the thresholds and advice of each group, and every attempt kept. Instants are ISO 8601 text.
 */

type Optional = ColumnType<string | null, string | null | undefined, string | null>;

/** The four parts of the review. */
export type ReviewGroup = "reading" | "writing" | "numeracy" | "digital";
/** How a question is answered: one of its choices, or a number. */
export type ReviewQuestionKind = "choice" | "numeric";
/** The outcome of a group and of the whole review. */
export type ReviewOutcome = "suitable" | "support" | "refer";
/** Where an enrolment in a review-required course stands: seat held without a review, held until staff decide, or confirmed. */
export type EnrollmentReviewStatus = "awaiting" | "referred" | "confirmed";

export interface ReviewQuestionsTable {
  id: string;
  group_key: ReviewGroup;
  kind: ReviewQuestionKind;
  prompt: string;
  /** what the question is about: a load chart's lines, a sign described, a form's field */
  context: Optional;
  /** JSON list of the choices (choice questions) */
  choices: Optional;
  /** choice: the index of the right choice; numeric: the value, as decimal text */
  answer: string;
  /** numeric: how far from the answer still counts, as decimal text */
  tolerance: Optional;
  position: number;
  is_active: ColumnType<number, number | undefined, number>;
  created_at: string;
  updated_at: string;
}

export interface ReviewGroupsTable {
  group_key: ReviewGroup;
  /** the score (percent) from which the group is "suitable" */
  suitable_from: number;
  /** the score (percent) from which it is "suitable with support"; below it: refer to staff */
  support_from: number;
  support_advice: string;
  refer_advice: string;
  updated_at: string;
}

export interface ReviewAttemptsTable {
  id: string;
  course_id: string;
  user_id: Optional;
  /** sha256 of the token in a visitor's browser, until they enrol and the attempt becomes theirs */
  claim_hash: Optional;
  /** JSON list of {question_id, group, answer, correct} */
  answers: string;
  /** JSON map of group to {correct, total, percent, outcome} */
  scores: string;
  outcome: ReviewOutcome;
  advice: string;
  /** JSON list of the groups below suitable */
  support: string;
  created_at: string;
}

export interface ReviewTables {
  review_questions: ReviewQuestionsTable;
  review_groups: ReviewGroupsTable;
  review_attempts: ReviewAttemptsTable;
}
