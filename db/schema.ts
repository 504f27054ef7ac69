import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/**
 * The database as Kysely sees it. Columns use portable types so the same queries run on
 * SQLite and PostgreSQL: ids are UUID text, instants are ISO 8601 text, booleans are 0/1
 * integers, money is integer cents, and lists are JSON text. Models convert at the edge.
 */

export type Role = "student" | "trainer" | "admin";
export type ApprovalStatus = "approved" | "pending" | "rejected";
export type Tier = "tier_1" | "tier_2" | "tier_3";
export type EnrollmentStatus = "enrolled" | "in_progress" | "completed" | "withdrawn";
export type AssessmentStatus = "passed" | "failed" | "in_progress" | "resubmission";

export interface UsersTable {
  id: string;
  email: string;
  full_name: string;
  password_hash: string;
  role: Role;
  phone: string | null;
  address: string | null;
  date_of_birth: string | null;
  emergency_contact: string | null;
  license_number: string | null;
  is_active: number;
  approval_status: ApprovalStatus;
  created_at: string | null;
  updated_at: string;
  last_login: string | null;
  /** enrolled or in-progress enrolments; kept by triggers (migration 2026-11-22T1800) */
  current_enrollments: ColumnType<number, never, never>;
}

export interface CoursesTable {
  id: string;
  unit_code: string;
  name: string;
  description: string;
  tier: Tier;
  duration_hours: number;
  price_cents: number;
  is_active: number;
  prerequisites: string;
  learning_outcomes: string;
  assessment_criteria: string;
  created_at: string;
  updated_at: string;
}

export interface EnrollmentsTable {
  id: string;
  student_id: string;
  course_id: string;
  status: EnrollmentStatus;
  progress_percentage: number;
  enrollment_date: string;
  completion_date: string | null;
  updated_at: string;
  /** Review state kept by triggers (migration 2026-11-22T1800): never written by the app. */
  latest_assessment_status: ColumnType<AssessmentStatus | null, never, never>;
  has_certificate: ColumnType<number, never, never>;
  /** generated: 1 when the enrolment waits on its assessor (PENDING_ASSESSMENT_DEFINITION) */
  awaiting_assessor: ColumnType<number, never, never>;
}

export interface CertificatesTable {
  id: string;
  certificate_number: string;
  student_id: string;
  course_id: string;
  enrollment_id: string;
  tier_achieved: Tier;
  issue_date: string;
  issued_by: string | null;
  created_at: string;
}

/** Rendered certificate PDFs, kept so a download serves stored bytes. */
export interface CertificateDocumentsTable {
  certificate_id: string;
  template_version: string;
  pdf: Buffer;
  byte_length: number;
  rendered_at: string;
}

/** Gives certificate numbers that are never reused, even if a certificate row is removed. */
export interface CertificateSequenceTable {
  year: number;
  last_value: number;
}

export interface FilesTable {
  id: string;
  student_id: string;
  filename: string;
  file_type: string;
  upload_date: string;
  description: string | null;
}

export interface AssessmentsTable {
  id: string;
  enrollment_id: string;
  student_id: string;
  course_id: string;
  assessment_type: string;
  status: AssessmentStatus;
  score: number | null;
  max_score: number | null;
  assessment_date: string;
  feedback: string | null;
  assessed_by: string | null;
  created_at: string;
}

export interface SessionsTable {
  /** sha-256 of the session id held in the cookie; the raw id is never stored */
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

export interface SignInAttemptsTable {
  id: Generated<number>;
  email: string;
  client: string;
  succeeded: number;
  attempted_at: string;
}

export interface PasswordResetTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** An accepted password reset request (known email or not), for per-email and per-client throttling. */
export interface PasswordResetRequestsTable {
  id: Generated<number>;
  email: string;
  client: string;
  requested_at: string;
}

/**
 * Who did what and when: the audit trail an RTO keeps, and the source of a student's
 * notifications (subject_user_id is the student the event concerns).
 */
export interface EventsTable {
  id: string;
  actor_id: string | null;
  subject_user_id: string | null;
  type: string;
  entity_type: string;
  entity_id: string | null;
  message: string;
  created_at: string;
}

/** Enrolments per course and status, kept by triggers (migration 2026-11-22T1900); read-only to the app. */
export interface EnrollmentCountsTable {
  course_id: ColumnType<string, never, never>;
  status: ColumnType<EnrollmentStatus, never, never>;
  n: ColumnType<number, never, never>;
}

/** When a user last marked their notifications read (a student's unread count). */
export interface NotificationReadsTable {
  user_id: string;
  seen_at: string;
}

export interface Database {
  users: UsersTable;
  courses: CoursesTable;
  enrollments: EnrollmentsTable;
  enrollment_counts: EnrollmentCountsTable;
  certificates: CertificatesTable;
  certificate_documents: CertificateDocumentsTable;
  certificate_sequence: CertificateSequenceTable;
  files: FilesTable;
  assessments: AssessmentsTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  sign_in_attempts: SignInAttemptsTable;
  password_reset_tokens: PasswordResetTokensTable;
  password_reset_requests: PasswordResetRequestsTable;
  events: EventsTable;
  notification_reads: NotificationReadsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type CourseRow = Selectable<CoursesTable>;
export type NewCourseRow = Insertable<CoursesTable>;
export type CourseUpdate = Updateable<CoursesTable>;
export type EnrollmentRow = Selectable<EnrollmentsTable>;
export type NewEnrollmentRow = Insertable<EnrollmentsTable>;
export type CertificateRow = Selectable<CertificatesTable>;
export type FileRow = Selectable<FilesTable>;
export type AssessmentRow = Selectable<AssessmentsTable>;
export type EventRow = Selectable<EventsTable>;
