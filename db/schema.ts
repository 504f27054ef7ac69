import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { EmployerTables } from "./schema-employers";
import type { EvidenceTables } from "./schema-evidence";
import type { ComplaintTables } from "./schema-complaints";
import type { ImprovementTables } from "./schema-improvement";
import type { FinanceTables, GstTreatment } from "./schema-finance";
import type { HrwTables } from "./schema-hrw";
import type { EnrollmentReviewStatus, ReviewOutcome, ReviewTables } from "./schema-review";
import type { StandardsTables } from "./schema-standards";
import type { RecognitionTables } from "./schema-recognition";
import type { RecognitionDecisionTables } from "./schema-recognition-decisions";

/**
 * The database as Kysely sees it. Columns use portable types so the same queries run on
 * SQLite and PostgreSQL: ids are UUID text, instants are ISO 8601 text, booleans are 0/1
 * integers, money is integer cents, and lists are JSON text. Models convert at the edge.
 */

/** A nullable column that an insert may leave out. */
type Optional = ColumnType<string | null, string | null | undefined, string | null>;

/** The value lists of the domain, each defined here once; the column types derive from them. */
export const ROLES = ["student", "trainer", "admin", "employer"] as const;
/** The roles a person may ask for when signing up: an employer's user is invited by an administrator. */
export const SIGN_UP_ROLES = ["student", "trainer", "admin"] as const satisfies readonly Role[];
export const APPROVAL_STATUSES = ["approved", "pending", "rejected"] as const;
export const TIERS = ["tier_1", "tier_2", "tier_3"] as const;
export const ENROLLMENT_STATUSES = ["enrolled", "in_progress", "completed", "withdrawn"] as const;
/** The enrolments a student is still studying: the ones trainers assess and progress. */
export const CURRENT_ENROLLMENT_STATUSES = ["enrolled", "in_progress"] as const satisfies readonly EnrollmentStatus[];
export const ASSESSMENT_STATUSES = ["passed", "failed", "in_progress", "resubmission"] as const;

export type Role = (typeof ROLES)[number];
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export type Tier = (typeof TIERS)[number];
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

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
  /** Unique Student Identifier, normalised (app/rules/usi.ts), or an exemption code; unique except exemptions */
  usi: ColumnType<string | null, string | null | undefined, string | null>;
  /** when and by whom the USI was verified against the USI Registry; cleared when the USI changes */
  usi_verified_at: ColumnType<string | null, string | null | undefined, string | null>;
  usi_verified_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** a USI this person gave themselves that another person holds: kept aside for the training office (usi stays null) */
  usi_claimed: ColumnType<string | null, string | null | undefined, string | null>;
  /** the NAT client identifier: unique, never reused (app/models/student-number.server.ts); null for staff */
  student_number: Optional;
  /**
   * The learner's AVETMISS details (migration 2026-11-24T0100): codes from
   * app/schemas/avetmiss-codes.ts, null while not stated; the type lists are JSON arrays of codes.
   */
  sex: Optional;
  address_building: Optional;
  address_unit: Optional;
  address_street_number: Optional;
  address_street_name: Optional;
  suburb: Optional;
  postcode: Optional;
  state: Optional;
  country_of_birth: Optional;
  language_at_home: Optional;
  indigenous_status: Optional;
  labour_force_status: Optional;
  highest_school_level: Optional;
  at_school: Optional;
  disability: Optional;
  disability_types: Optional;
  prior_education: Optional;
  prior_education_types: Optional;
  survey_contact_status: Optional;
  /** the organisation an employer's user acts for (role employer only) */
  employer_id: Optional;
  /** 1 for the administrator npm run admin:create made: its password works even when staff must use single sign-on */
  break_glass: ColumnType<number, number | undefined, number>;
}

/** Sign-in settings administrators choose (require_sso_for_staff), one row per key. */
export interface SignInSettingsTable {
  key: string;
  value: string;
  updated_by: string | null;
  updated_at: string;
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
  /** 6-digit ASCED field of education code of the unit (training.gov.au); null until recorded */
  field_of_education: Optional;
  /** 1 when the unit is vocational education and training (the NAT VET flag) */
  vet_flag: ColumnType<number, number | undefined, number>;
  /** the unit's title on the national register (NAT00060); null until recorded */
  official_title: Optional;
  /** the high-risk work licence class the course leads to (app/schemas/hrw-codes.ts); null: none */
  licence_class: Optional;
  /** JSON list of licence classes a candidate must hold first; null: the class's defaults */
  licence_prerequisites: Optional;
  /** 1: an enrolment is confirmed only after the learner's pre-enrolment review (migration 2026-11-29T0300) */
  review_required: ColumnType<number, number | undefined, number>;
  /** days a learner waits before taking the review again */
  review_retake_days: ColumnType<number, number | undefined, number>;
  /** GST-free (an accredited VET course) or taxable at 10% (migration 2026-11-29T0800) */
  gst_treatment: ColumnType<GstTreatment, GstTreatment | undefined, GstTreatment>;
  /** the RPL fee per unit, GST-inclusive cents, invoiced on application; 0: none (migration 2026-12-04T1404) */
  rpl_fee_cents: ColumnType<number, number | undefined, number>;
}

/** Where training is delivered (NAT00020); every enrolment names one. */
export interface DeliveryLocationsTable {
  id: string;
  /** the NAT delivery location identifier, at most 10 characters, unique */
  identifier: string;
  name: string;
  suburb: string | null;
  postcode: string | null;
  state: string | null;
  /** ABS SACC country code */
  country: string;
  created_at: string;
  updated_at: string;
}

/** Counters that only ever grow (the last student number handed out). */
export interface CountersTable {
  name: string;
  last_value: number;
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
  /** where the training is delivered (delivery_locations); the first location when none is chosen */
  location_id: Optional;
  /** planned activity dates (YYYY-MM-DD): from the class when there is one, else enrolment date + the unit's duration; staff may change them */
  planned_start_date: Optional;
  planned_end_date: Optional;
  /** the class this enrolment holds a seat in (migration 2026-11-26T0700); null for a course without classes */
  class_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** the group booking whose seat this enrolment sits in (the booking counts the seat) */
  group_booking_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Review state kept by triggers (migration 2026-11-22T1800): never written by the app. */
  latest_assessment_status: ColumnType<AssessmentStatus | null, never, never>;
  has_certificate: ColumnType<number, never, never>;
  /** generated: 1 when the enrolment waits on its assessor (PENDING_ASSESSMENT_DEFINITION) */
  awaiting_assessor: ColumnType<number, never, never>;
  /** the pre-enrolment review (migration 2026-11-29T0300): null when the course asked for none */
  review_status: ColumnType<EnrollmentReviewStatus | null, EnrollmentReviewStatus | null | undefined, EnrollmentReviewStatus | null>;
  review_attempt_id: Optional;
  review_outcome: ColumnType<ReviewOutcome | null, ReviewOutcome | null | undefined, ReviewOutcome | null>;
  review_advice: Optional;
  /** JSON list of the groups the learner needs support in */
  review_support: Optional;
  review_override_reason: Optional;
  review_overridden_by: Optional;
  review_overridden_at: Optional;
  /** the refund policy version shown when the learner enrolled (app/schemas/refund-policy.ts); null before it was kept */
  refund_policy_version: Optional;
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
  /** 16 characters, 80 random bits: the code of its public /verify page (migration 2026-11-23T1101) */
  verification_code: string;
  revoked_at: Optional;
  revoked_by: Optional;
  /** why an administrator revoked it; never shown publicly */
  revocation_reason: Optional;
  /** the certificate this reissue replaces */
  replaces_id: Optional;
  /** set when a reissue replaced this certificate; the enrolment's current certificate has none */
  replaced_at: Optional;
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

/** A learner's document (White Card, photo ID, licence), uploaded by the office (models/learner-document.server.ts). */
export interface FilesTable {
  id: string;
  student_id: string;
  filename: string;
  /** the type judged from its bytes */
  file_type: string;
  upload_date: string;
  description: string | null;
  /** where its bytes are in the file store; null on a row made before documents had bytes */
  sha256: ColumnType<string | null, string | null | undefined, string | null>;
  size_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  uploaded_by: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** the absolute limit: created_at plus SESSION_DAYS */
  expires_at: string;
  /** the idle limit counts from here (null only for rows older than the column) */
  last_seen_at: string | null;
  /** "provider" when the identity provider reported a second factor for this sign-in (single sign-on) */
  second_factor: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

export interface PasswordResetTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
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

/** Accounts per role, active and not, kept by triggers on users (migration 2026-12-05T0601); read-only to the app. */
export interface UserCountsTable {
  role: ColumnType<Role, never, never>;
  is_active: ColumnType<number, never, never>;
  n: ColumnType<number, never, never>;
}

/** Assessments per status, kept by triggers on assessments (migration 2026-12-05T0602); read-only to the app. */
export interface AssessmentCountsTable {
  status: ColumnType<AssessmentStatus, never, never>;
  n: ColumnType<number, never, never>;
}

/** Enrolments per course and status, kept by triggers (migration 2026-11-22T1900); read-only to the app. */
export interface EnrollmentCountsTable {
  course_id: ColumnType<string, never, never>;
  status: ColumnType<EnrollmentStatus, never, never>;
  n: ColumnType<number, never, never>;
}

/**
 * Enrolments made and completed per hour of UTC ("2026-03-01T13") and tier, kept by triggers
 * (migration 2026-12-05T1500); read-only to the app.
 */
export interface EnrollmentHoursTable {
  hour: ColumnType<string, never, never>;
  tier: ColumnType<Tier, never, never>;
  enrolled: ColumnType<number, never, never>;
  completed: ColumnType<number, never, never>;
}

/**
 * Versions of what a cache reads, one row per topic, moved only by triggers (migration
 * 2026-11-26T0400): `avetmiss` moves on every write to what the AVETMISS export reads.
 */
export interface ChangeCountersTable {
  topic: ColumnType<string, never, never>;
  version: ColumnType<number, never, never>;
}

/** When a user last marked their notifications read (a student's unread count). */
export interface NotificationReadsTable {
  user_id: string;
  seen_at: string;
}

/**
 * One request counted against a rate limit, or a client known to an account
 * (app/security/rate-limits.server.ts): `rule` names the rule, `key` what it counts by.
 */
export interface RequestLimitsTable {
  id: Generated<number>;
  rule: string;
  key: string;
  at: string;
}

/**
 * A one-time token spent on a change stored once: a form's hidden token or an /api call's
 * Idempotency-Key (migration 2026-12-08T0100; docs/decisions/048-a-repeated-post-stores-once.md).
 */
export interface SpentTokensTable {
  user_id: string;
  token: string;
  /** what it was spent on: payment, credit_note or booking */
  purpose: string;
  used_at: string;
}

/** A scheduled run of a course (migration 2026-11-26T0700; docs/decisions/013-classes.md). Dates YYYY-MM-DD. */
export interface ClassesTable {
  id: string;
  course_id: string;
  start_date: string;
  end_date: string;
  location_id: string | null;
  trainer_id: string | null;
  seats: number;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One day of a class; times HH:MM on the RTO's clock (app/utils/organisation-calendar.ts). */
export interface ClassSessionsTable {
  id: string;
  class_id: string;
  session_date: string;
  starts_at: string;
  ends_at: string;
}

export type WaitlistStatus = "waiting" | "offered" | "accepted" | "expired" | "left";

export interface ClassWaitlistTable {
  /** identity: the order learners joined in (first come, first served) */
  id: Generated<number>;
  class_id: string;
  student_id: string;
  status: WaitlistStatus;
  joined_at: string;
  offered_at: string | null;
  offer_expires_at: string | null;
  offer_mailed_at: string | null;
}

export type AttendanceStatus = "present" | "absent" | "late";

export interface AttendanceTable {
  session_id: string;
  enrollment_id: string;
  status: AttendanceStatus;
  marked_by: string | null;
  marked_at: string;
}

export interface AttendanceAlertsTable {
  id: Generated<number>;
  enrollment_id: string;
  /** the session of the second absence in a row */
  session_id: string;
  created_at: string;
  mailed_at: string | null;
}

export interface CalendarFeedsTable {
  user_id: string;
  /** SHA-256 of the feed URL's token; the token itself is never stored */
  token_hash: string;
  created_at: string;
}

export interface ClassRemindersTable {
  class_id: string;
  enrollment_id: string;
  sent_at: string;
}

export type OutboxState = "queued" | "sent" | "failed" | "given_up";

/** One mail the portal sends (migration 2026-11-27T1500; app/models/outbox.server.ts). */
export interface OutboxMessagesTable {
  id: string;
  /** unique: what the message is about, so a job run twice queues it once */
  key: string;
  /** null only for a person without an account (a complainant), addressed by recipient_email */
  recipient_id: ColumnType<string | null, string | null | undefined, string | null>;
  recipient_email: ColumnType<string | null, string | null | undefined, string | null>;
  recipient_name: ColumnType<string | null, string | null | undefined, string | null>;
  template: string;
  /** JSON: what the template fills in besides the recipient's name */
  data: string;
  state: OutboxState;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_by: string | null;
  claimed_until: string | null;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
}

export type WebhookDeliveryState = "queued" | "delivered" | "failed" | "given_up";

/** A receiver of webhooks an administrator registered (migration 2026-12-04T1406; app/models/webhooks.server.ts). */
export interface WebhookEndpointsTable {
  id: string;
  url: string;
  description: string;
  audience: "admin" | "trainer";
  /** JSON array of event types */
  events: string;
  /** whsec_<base64>: the key every delivery is signed with */
  secret: string;
  /** the secret before the last rotation, still signing until previous_secret_until */
  previous_secret: string | null;
  previous_secret_until: string | null;
  is_active: Generated<number>;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One event for one endpoint: its id is the webhook-id every try sends. */
export interface WebhookDeliveriesTable {
  id: string;
  key: string;
  endpoint_id: string;
  event_type: string;
  payload: string;
  state: WebhookDeliveryState;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_by: string | null;
  claimed_until: string | null;
  delivered_at: string | null;
  last_attempt_at: string | null;
  response_status: number | null;
  response_excerpt: string | null;
  last_error: string | null;
  created_at: string;
}

/** One security-relevant event (migration 2026-11-26T0500): append-only, the database refuses UPDATE and DELETE. */
export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  action: string;
  actor_id: string | null;
  /** the actor's email when it happened, so the entry reads after the account changes */
  actor_email: string | null;
  subject_type: string | null;
  subject_id: string | null;
  /** the person the entry concerns (a student whose record changed, a staff member reset) */
  subject_user_id: string | null;
  client: string | null;
  /** comma-separated names of changed fields, never their values */
  fields: string | null;
  detail: string | null;
  /** the hash of the entry before this one (db/audit-chain.ts) */
  prev_hash: string;
  /** the hash of this entry's content and prev_hash */
  hash: string;
}

/**
 * The audit trail's head (migration 2026-11-27T1600): one row, the id and hash of the last entry
 * appended, moved by audit_log's insert trigger and refused every other change.
 */
export interface AuditHeadTable {
  id: number;
  last_id: number;
  last_hash: string;
  /** the last entry that may follow a gap in ids (left before the chain existed); none after it */
  gapless_after: number;
}

/**
 * A signed checkpoint of the audit trail (migration 2026-12-04T0900, db/audit-chain.ts): the
 * trail was verified through entry `through_id`, whose hash was `through_hash`; signed with
 * AUDIT_KEY, which the database never holds. Appended only, numbered 1, 2, 3…
 */
export interface AuditCheckpointsTable {
  id: number;
  through_id: number;
  through_hash: string;
  made_at: string;
  key_id: string;
  prev_signature: string;
  signature: string;
}

/** A user's authenticator secret: set-up begun (confirmed_at null) or in use. */
export interface TwoStepTable {
  user_id: string;
  secret: string;
  created_at: string;
  confirmed_at: string | null;
  /** the newest TOTP step a code was accepted for: an older or equal one is refused */
  last_step: number | null;
  /** a new authenticator being set up again while `secret` stays in use (encrypted as `secret` is) */
  pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The state between a right password and its second step: one row per sign-in, used once. */
export interface SignInStepsTable {
  /** sha-256 of the id the step cookie holds */
  id: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: string;
  code_hash: string;
  used_at: string | null;
}

/** How many active students have a current enrolment (one row, id 1), kept by triggers on users. */
/** One kept count (id 1): studying_count (2026-12-05T1200), awaiting_assessor_count (2026-12-05T1520), certificate_count (2026-12-05T1550). */
export interface StudyingCountTable {
  id: number;
  n: number;
}

/** The runner's last AVETMISS readiness check of a year (app/avetmiss/readiness.server.ts). */
export interface AvetmissReadinessTable {
  year: number;
  /** the check's issues in avetmiss_issues; null until a first check is done */
  generation: string | null;
  /** the `avetmiss` change counter the check read */
  version: number | null;
  /** the organisation's day the check's date rules used */
  checked_day: string | null;
  /** "code|name" of the organisation checked */
  organisation: string | null;
  checked_at: string | null;
  took_ms: number | null;
  active: Generated<number>;
  /** JSON: records per NAT file */
  counts: Generated<string>;
  /** JSON: problems per file and kind, most common first */
  groups: Generated<string>;
  issue_count: Generated<number>;
  /** a worker checking the year holds it until then */
  claimed_until: string | null;
}

export interface AvetmissIssuesTable {
  generation: string;
  seq: number;
  /** 0 for a record's own problem, 1 and up for each rule on facts in turn (listed after) */
  rank: number;
  file: string;
  record: string;
  key: string;
  field: string;
  problem: string;
  href: string;
}

export interface Database
  extends
    HrwTables,
    EvidenceTables,
    ReviewTables,
    ComplaintTables,
    ImprovementTables,
    FinanceTables,
    StandardsTables,
    EmployerTables,
    RecognitionTables,
    RecognitionDecisionTables {
  audit_log: AuditLogTable;
  audit_head: AuditHeadTable;
  audit_checkpoints: AuditCheckpointsTable;
  two_step: TwoStepTable;
  recovery_codes: RecoveryCodesTable;
  sign_in_steps: SignInStepsTable;
  sign_in_settings: SignInSettingsTable;
  classes: ClassesTable;
  class_sessions: ClassSessionsTable;
  class_waitlist: ClassWaitlistTable;
  attendance: AttendanceTable;
  attendance_alerts: AttendanceAlertsTable;
  calendar_feeds: CalendarFeedsTable;
  class_reminders: ClassRemindersTable;
  outbox_messages: OutboxMessagesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  request_limits: RequestLimitsTable;
  spent_tokens: SpentTokensTable;
  users: UsersTable;
  courses: CoursesTable;
  enrollments: EnrollmentsTable;
  enrollment_counts: EnrollmentCountsTable;
  user_counts: UserCountsTable;
  assessment_counts: AssessmentCountsTable;
  change_counters: ChangeCountersTable;
  studying_count: StudyingCountTable;
  enrollment_hours: EnrollmentHoursTable;
  awaiting_assessor_count: StudyingCountTable;
  certificate_count: StudyingCountTable;
  avetmiss_readiness: AvetmissReadinessTable;
  avetmiss_issues: AvetmissIssuesTable;
  certificates: CertificatesTable;
  certificate_documents: CertificateDocumentsTable;
  certificate_sequence: CertificateSequenceTable;
  files: FilesTable;
  assessments: AssessmentsTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  password_reset_tokens: PasswordResetTokensTable;
  events: EventsTable;
  notification_reads: NotificationReadsTable;
  delivery_locations: DeliveryLocationsTable;
  counters: CountersTable;
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
export type AuditLogRow = Selectable<AuditLogTable>;
export type DeliveryLocationRow = Selectable<DeliveryLocationsTable>;
export type NewAvetmissIssueRow = Insertable<AvetmissIssuesTable>;
