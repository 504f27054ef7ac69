import type { ColumnType } from "kysely";

/**
 * The improvement register and the questionnaires (migration 2026-11-29T0600). Instants are
 * ISO 8601 text, days YYYY-MM-DD on the organisation's calendar, booleans 0/1.
 */

export type ImprovementSource = "complaint" | "appeal" | "validation" | "questionnaire" | "audit" | "other";
export type ImprovementStatus = "open" | "in_progress" | "closed";
export type QuestionnaireAudience = "learner" | "employer";
export type QuestionKind = "rating" | "text";

type Optional = ColumnType<string | null, string | null | undefined, string | null>;

export interface ImprovementActionsTable {
  id: string;
  source_type: ImprovementSource;
  source_id: Optional;
  source_label: Optional;
  description: string;
  owner_id: string;
  due_date: string;
  status: ImprovementStatus;
  action_taken: Optional;
  closure_evidence: Optional;
  closed_at: Optional;
  closed_by: Optional;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface QuestionnaireQuestionsTable {
  id: string;
  audience: QuestionnaireAudience;
  kind: QuestionKind;
  prompt: string;
  position: number;
  retired_at: Optional;
  created_at: string;
  updated_at: string;
}

export interface QuestionnaireSettingsTable {
  audience: QuestionnaireAudience;
  low_average_tenths: number;
  updated_at: string;
}

export interface QuestionnaireInvitationsTable {
  id: string;
  audience: QuestionnaireAudience;
  cause_key: string;
  token_hash: string;
  recipient_id: Optional;
  used: ColumnType<number, number | undefined, number>;
  created_at: string;
}

export interface QuestionnaireResponsesTable {
  id: string;
  audience: QuestionnaireAudience;
  submitted_on: string;
}

export interface QuestionnaireAnswersTable {
  response_id: string;
  question_id: string;
  rating: ColumnType<number | null, number | null | undefined, number | null>;
  text: Optional;
}

export interface ImprovementTables {
  improvement_actions: ImprovementActionsTable;
  questionnaire_questions: QuestionnaireQuestionsTable;
  questionnaire_settings: QuestionnaireSettingsTable;
  questionnaire_invitations: QuestionnaireInvitationsTable;
  questionnaire_responses: QuestionnaireResponsesTable;
  questionnaire_answers: QuestionnaireAnswersTable;
}
