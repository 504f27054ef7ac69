import type { ColumnType } from "kysely";

/**
 * Credit transfer and recognition of prior learning (migration 2026-12-04T1404). Instants are
 * ISO 8601 text, days YYYY-MM-DD on the organisation's calendar, like every table.
 */

type Optional = ColumnType<string | null, string | null | undefined, string | null>;

export const RECOGNITION_KINDS = ["credit_transfer", "rpl"] as const;
export type RecognitionKind = (typeof RECOGNITION_KINDS)[number];
export const RECOGNITION_STATUSES = ["applied", "granted", "not_granted", "refused"] as const;
export type RecognitionStatus = (typeof RECOGNITION_STATUSES)[number];
/** the same unit, an equivalent one, or the unit it supersedes, as staff record it */
export const EQUIVALENCES = ["same", "equivalent", "superseding"] as const;
export type Equivalence = (typeof EQUIVALENCES)[number];
/** the national outcomes a decision records: 60 credit transfer, 51 RPL granted, 52 RPL not granted */
export type RecognitionOutcome = "51" | "52" | "60";

export interface RecognitionApplicationsTable {
  id: string;
  enrollment_id: string;
  student_id: string;
  course_id: string;
  kind: RecognitionKind;
  status: RecognitionStatus;
  /** the learner's own words: what they hold or what work they have done */
  statement: string;
  applied_by: string;
  applied_at: string;
  applied_on: string;
  issuing_rto_code: Optional;
  document_number: Optional;
  checked_how: Optional;
  checked_on: Optional;
  checked_by: Optional;
  equivalence: ColumnType<Equivalence | null, Equivalence | null | undefined, Equivalence | null>;
  held_unit_code: Optional;
  mapping: Optional;
  assessor_id: Optional;
  outcome_code: ColumnType<RecognitionOutcome | null, RecognitionOutcome | null | undefined, RecognitionOutcome | null>;
  decided_on: Optional;
  decided_at: Optional;
  decided_by: Optional;
  reasons: Optional;
  fee_invoice_id: Optional;
  credit_note_id: Optional;
}

/** A referee's report asked for on an RPL (migration 2026-12-04T2101): the request, then what the referee wrote. */
export interface RecognitionRefereeRequestsTable {
  id: string;
  application_id: string;
  referee_name: string;
  referee_email: string;
  /** how staff describe the referee: "Site supervisor, Acme Cranes" */
  relationship: Optional;
  /** SHA-256 of the mailed link's token: the token itself is never stored */
  token_hash: string;
  requested_by: string;
  requested_at: string;
  expires_at: string;
  submitted_at: Optional;
  reporter_name: Optional;
  reporter_role: Optional;
  reporter_organisation: Optional;
  reporter_phone: Optional;
  known_how: Optional;
  work_witnessed: Optional;
  worked_from: Optional;
  worked_to: Optional;
}

export const RECOGNITION_SESSION_KINDS = ["conversation", "practical"] as const;
export type RecognitionSessionKind = (typeof RECOGNITION_SESSION_KINDS)[number];

/** A competency conversation or practical challenge booked for an RPL (migration 2026-12-04T2101). */
export interface RecognitionSessionsTable {
  id: string;
  application_id: string;
  kind: RecognitionSessionKind;
  assessor_id: string;
  /** the organisation's day and its wall-clock HH:MM, as class_sessions keep them */
  session_date: string;
  starts_at: string;
  ends_at: string;
  location_id: string;
  notes: Optional;
  booked_by: string;
  booked_at: string;
  updated_at: string;
  cancelled_at: Optional;
  cancelled_by: Optional;
  cancel_reason: Optional;
}

export interface RecognitionTables {
  recognition_applications: RecognitionApplicationsTable;
  recognition_referee_requests: RecognitionRefereeRequestsTable;
  recognition_sessions: RecognitionSessionsTable;
}
