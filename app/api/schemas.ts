import { AUDIT_ACTION_NAMES } from "~/rules/audit-actions";
import { z } from "zod";
import { ASSESSMENT_STATUSES, ENROLLMENT_STATUSES, ROLES, TIERS } from "#db/schema";
import { USI_STATUSES } from "~/rules/usi";
import { loginSchema, logoutSchema, registrationSchema } from "~/schemas/auth";
import { coursePatchSchema } from "~/schemas/course";
import { enrollmentPayloadSchema } from "~/schemas/enrollment";
import { assessmentSchema } from "~/schemas/assessment";
import { certificateIssueSchema, certificateRevokeSchema, staffActiveSchema } from "~/schemas/page-queries";
import { enrollmentPatchSchema } from "~/schemas/enrollment-update";
import { signInSettingsSchema } from "~/schemas/sign-in-settings";
import { studentPatchSchema } from "~/schemas/student";
import { LICENCE_CLASS_CODES } from "~/schemas/hrw-codes";
import { MAIL_STATES, MAIL_TEMPLATES } from "~/schemas/mail-text";
import { GST_TREATMENT_CODES } from "~/schemas/invoice-text";

/**
 * The /api's payloads and answers as zod schemas: the request bodies are the schemas of
 * app/schemas/, which the HTML forms share (named here for the document and made strict, so an
 * unknown field is a 422 rather than silently dropped), and the responses describe what the
 * models return. Both feed the OpenAPI document
 * (app/api/openapi.ts) and the tests that check real responses against it.
 */

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** Named request bodies for the OpenAPI document (described as the client sends them). */
export const requests = z.registry<{ id: string }>();
/** Named response shapes for the OpenAPI document (described as the server sends them). */
export const responses = z.registry<{ id: string }>();

export const loginRequest = loginSchema.strict().register(requests, { id: "LoginRequest" });
export const registerRequest = registrationSchema.strict().register(requests, { id: "RegisterRequest" });
export const studentUpdateRequest = studentPatchSchema.strict().register(requests, { id: "StudentUpdate" });
export const staffUpdateRequest = staffActiveSchema.strict().register(requests, { id: "StaffUpdate" });
export const signInSettingsRequest = signInSettingsSchema.strict().register(requests, { id: "SignInSettingsUpdate" });
export const courseUpdateRequest = coursePatchSchema.strict().register(requests, { id: "CourseUpdate" });
export const enrollmentRequest = enrollmentPayloadSchema.strict().register(requests, { id: "EnrollmentRequest" });
export const assessmentRequest = assessmentSchema.strict().register(requests, { id: "AssessmentRequest" });
export const certificateIssueRequest = certificateIssueSchema.strict().register(requests, { id: "CertificateIssueRequest" });
export const certificateRevokeRequest = certificateRevokeSchema.strict().register(requests, { id: "CertificateRevokeRequest" });
export const enrollmentUpdateRequest = enrollmentPatchSchema.strict().register(requests, { id: "EnrollmentUpdate" });
export const logoutRequest = logoutSchema.strict().register(requests, { id: "LogoutRequest" });

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

const id = z.uuid();
const instant = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time");
const count = z.int().min(0);
const percentage = z.int().min(0).max(100);

export const errorResponse = z
  .strictObject({
    detail: z.string(),
    errors: z.record(z.string(), z.string()).optional().describe("Message per invalid or unknown field"),
  })
  .register(responses, { id: "Error" });

export const tokenResponse = z.strictObject({ access_token: z.string().min(20), token_type: z.literal("bearer") }).register(responses, { id: "Token" });

export const registerResponse = z.strictObject({ success: z.literal(true), message: z.string() }).register(responses, { id: "RegisterSuccess" });

export const registerFailureResponse = z
  .strictObject({
    success: z.literal(false),
    message: z.string(),
    detail: z.string(),
    errors: z.record(z.string(), z.string()).optional(),
  })
  .register(responses, { id: "RegisterFailure" });

/** A user as the /api shows one: never the password hash. */
export const userResponse = z
  .strictObject({
    id,
    email: z.string(),
    full_name: z.string(),
    phone: z.string().nullable(),
    address: z.string().nullable(),
    date_of_birth: z.iso.date().nullable(),
    emergency_contact: z.string().nullable(),
    license_number: z.string().nullable(),
    is_active: z.boolean(),
    created_at: instant.nullable().describe("Member since; null shows as Unknown"),
    last_login: instant.nullable().describe("null shows as Never"),
    role: z.enum(ROLES),
    usi: z
      .string()
      .nullable()
      .describe("Unique Student Identifier, or the exemption code INDIV or INTOFF; shown only to its owner, trainers and administrators"),
    usi_verified_at: instant
      .nullable()
      .describe(
        "When a trainer or administrator recorded the USI as verified with the USI Registry, or an administrator recorded an exemption code; null while unverified",
      ),
    usi_claimed: z
      .string()
      .nullable()
      .describe(
        "Administrators: a USI the learner gave that another person already holds, kept aside for the training office to resolve (setting `usi` settles it)",
      ),
    student_number: z.string().max(10).nullable().describe("The student number (the AVETMISS client identifier): unique, never reused; null for staff"),
  })
  .register(responses, { id: "User" });

/** How staff sign in (GET and PUT /api/admin/sign-in-settings). */
export const signInSettingsResponse = z
  .object({
    provider: z
      .string()
      .nullable()
      .describe("The identity provider's name on the sign-in page's button (OIDC_PROVIDER_NAME); null when single sign-on is not configured"),
    require_sso_for_staff: z
      .boolean()
      .describe("Trainers' and administrators' passwords are refused (the break-glass administrator's excepted) while a provider is configured"),
    updated_at: z.string().nullable().describe("When an administrator last changed it; null when never"),
  })
  .register(responses, { id: "SignInSettings" });

/** A student as a trainer reads one (personal-data.server.ts): contact fields and where the USI stands. */
export const studentContactResponse = userResponse
  .pick({ id: true, email: true, full_name: true, phone: true, student_number: true, is_active: true, role: true, created_at: true, last_login: true })
  .extend({ usi_status: z.enum(USI_STATUSES).describe("Where the USI stands; the USI itself is for its owner and administrators") })
  .register(responses, { id: "StudentContact" });

export const studentAsReadResponse = z
  .union([userResponse, studentContactResponse])
  .describe("A student whole (administrators) or as a trainer reads one (StudentContact)")
  .register(responses, { id: "StudentAsRead" });

export const courseResponse = z
  .strictObject({
    id,
    unit_code: z.string(),
    name: z.string(),
    description: z.string(),
    tier: z.enum(TIERS),
    duration_hours: z.number().min(0),
    price: z.number().min(0).describe("Dollars with cents"),
    rpl_fee: z
      .number()
      .min(0)
      .describe(
        "Recognition of prior learning: the fee per unit invoiced when a learner applies, dollars with cents, with the course's GST treatment; 0: none",
      ),
    gst_treatment: z
      .enum(GST_TREATMENT_CODES)
      .describe("How its invoices charge GST: gst_free (an accredited VET course) or taxable (10%, included in the price)"),
    is_active: z.boolean(),
    prerequisites: z.array(z.string()),
    learning_outcomes: z.array(z.string()),
    assessment_criteria: z.array(z.string()),
    field_of_education: z
      .string()
      .regex(/^\d{6}$/)
      .nullable()
      .describe("6-digit ASCED field of education code (AVETMISS); null until recorded"),
    official_title: z
      .string()
      .nullable()
      .describe("The unit's title on the national register (training.gov.au), reported as NAT00060's subject name; null until recorded"),
    vet_flag: z.boolean().describe("Vocational education and training (the AVETMISS VET flag)"),
    licence_class: z.enum(LICENCE_CLASS_CODES).nullable().describe("High-risk work licence class the course leads to; null: none"),
    licence_prerequisites: z.array(z.enum(LICENCE_CLASS_CODES)).describe("Licence classes a candidate must hold first (the class's defaults unless set)"),
    review_required: z.boolean().describe("An enrolment is confirmed only after the learner's pre-enrolment review (language, literacy, numeracy, digital)"),
    review_retake_days: z.number().int().min(0).describe("Days a learner waits before taking the review again"),
    created_at: instant,
    updated_at: instant,
  })
  .register(responses, { id: "Course" });

export const enrollmentResponse = z
  .strictObject({
    id,
    course_id: id,
    status: z.enum(ENROLLMENT_STATUSES),
    progress_percentage: percentage,
    enrollment_date: instant,
    completion_date: instant.nullable(),
    course: z.strictObject({
      id,
      name: z.string(),
      unit_code: z.string(),
      tier: z.enum(TIERS),
      duration_hours: z.number().min(0),
      price: z.number().min(0),
      description: z.string(),
    }),
  })
  .register(responses, { id: "Enrollment" });

const CERTIFICATE_STATUSES = ["valid", "revoked", "replaced"] as const;

export const certificateResponse = z
  .strictObject({
    id,
    certificate_number: z.string(),
    tier_achieved: z.enum(TIERS),
    issue_date: instant,
    verification_code: z.string().describe("The code of the certificate's public page, /verify/{code}"),
    status: z.enum(CERTIFICATE_STATUSES).describe("valid, revoked by an administrator, or replaced by a reissued certificate"),
    revoked_at: instant.nullable(),
    replaced_at: instant.nullable(),
    course: z.strictObject({
      id,
      name: z.string().describe("The course's display name"),
      unit_code: z.string(),
      unit_title: z
        .string()
        .describe("The unit's official title from the national register, as the certificate prints it (the display name for a course without one)"),
    }),
  })
  .register(responses, { id: "Certificate" });

export const assessmentResponse = z
  .strictObject({
    id,
    enrollment_id: id,
    assessment_type: z.string(),
    status: z.enum(ASSESSMENT_STATUSES),
    score: z.int().min(0).nullable(),
    max_score: z.int().min(0).nullable(),
    assessment_date: instant,
    feedback: z.string().nullable(),
    created_at: instant,
    student: z.strictObject({ id, full_name: z.string() }),
    course: z.strictObject({ id, name: z.string(), tier: z.enum(TIERS) }),
    assessor: z.strictObject({ id, full_name: z.string() }).nullable(),
  })
  .register(responses, { id: "Assessment" });

export const trainerEnrollmentResponse = z
  .strictObject({
    id,
    status: z.enum(ENROLLMENT_STATUSES),
    progress_percentage: percentage,
    enrollment_date: instant,
    completion_date: instant.nullable(),
    planned_start_date: z.string().nullable().describe("Planned start of the activity (YYYY-MM-DD), reported in NAT00120"),
    planned_end_date: z.string().nullable().describe("Planned end of the activity (YYYY-MM-DD)"),
    student: z.strictObject({
      id,
      full_name: z.string(),
      email: z.string(),
      is_active: z.boolean(),
      usi_status: z.enum(USI_STATUSES).describe("A certificate needs a verified USI or a recorded exemption"),
    }),
    course: z.strictObject({ id, name: z.string(), unit_code: z.string(), tier: z.enum(TIERS) }),
    certificate: z
      .strictObject({ id, certificate_number: z.string(), issue_date: instant })
      .nullable()
      .describe("The enrolment's current certificate; completing issues it when the student's USI is verified"),
  })
  .register(responses, { id: "TrainerEnrollment" });

export const dashboardStatsResponse = z
  .strictObject({
    total_students: count,
    active_courses: count,
    completed_courses: count.describe("Completed enrolments"),
    completion_rate: percentage.describe("Completed enrolments over all enrolments, in percent"),
    tier_1_completions: count,
    tier_2_completions: count,
    tier_3_completions: count,
    total_enrollments: count,
    active_enrollments: count.describe("Enrolments under way (enrolled or in progress)"),
  })
  .register(responses, { id: "DashboardStats" });

const code = z.string().nullable();
export const avetmissDetailsResponse = z
  .strictObject({
    sex: code,
    address_building: code,
    address_unit: code,
    address_street_number: code,
    address_street_name: code,
    suburb: code,
    postcode: code,
    state: code,
    country_of_birth: code,
    language_at_home: code,
    indigenous_status: code,
    labour_force_status: code,
    highest_school_level: code,
    at_school: code,
    disability: code,
    disability_types: z.array(z.string()),
    prior_education: code,
    prior_education_types: z.array(z.string()),
    survey_contact_status: code,
  })
  .describe("The learner's AVETMISS details as codes (null: not stated); PUT /api/admin/students/{id} takes the same names")
  .register(responses, { id: "AvetmissDetails" });

export const studentDetailResponse = z
  .strictObject({
    student: userResponse,
    usi_held_by: z
      .strictObject({ id, full_name: z.string(), student_number: z.string().nullable() })
      .nullable()
      .describe("Who holds the USI this student gave (usi_claimed), for the office to settle"),
    avetmiss: avetmissDetailsResponse,
    enrollments: z.array(enrollmentResponse),
    certificates: z.array(certificateResponse),
    files: z.array(
      z.strictObject({
        id,
        filename: z.string(),
        file_type: z.string(),
        upload_date: instant,
        description: z.string().nullable(),
        size_bytes: z.int().min(0).nullable(),
        download_url: z.string().nullable().describe("GET it for the bytes (downloadLearnerDocument); null for a document recorded without them"),
      }),
    ),
    assessments: z.array(
      z.strictObject({
        id,
        course_name: z.string(),
        assessment_type: z.string(),
        status: z.enum(ASSESSMENT_STATUSES),
        score: z.int().min(0).nullable(),
        max_score: z.int().min(0).nullable(),
        assessment_date: instant,
        feedback: z.string().nullable(),
      }),
    ),
    summary: z.strictObject({
      total_enrollments: count,
      completed_courses: count,
      total_certificates: count,
      avg_progress: percentage,
    }),
  })
  .register(responses, { id: "StudentDetail" });

export const studentContactDetailResponse = studentDetailResponse
  .omit({ student: true, usi_held_by: true, avetmiss: true, files: true })
  .extend({ student: studentContactResponse })
  .register(responses, { id: "StudentContactDetail" });

export const studentDetailAsReadResponse = z
  .union([studentDetailResponse, studentContactDetailResponse])
  .describe("A student's record whole (administrators) or as a trainer reads it (StudentContactDetail)")
  .register(responses, { id: "StudentDetailAsRead" });

export const courseDetailResponse = z
  .strictObject({
    course: courseResponse,
    statistics: z.strictObject({ total_enrollments: count, completion_rate: percentage }),
    recent_enrollments: z.array(
      z.strictObject({
        id,
        student_name: z.string(),
        student_email: z.string(),
        status: z.enum(ENROLLMENT_STATUSES),
        progress_percentage: percentage,
        enrollment_date: instant,
      }),
    ),
  })
  .register(responses, { id: "CourseDetail" });

/** GET /api/verify/{code}: what anyone may learn about a certificate; never a USI or date of birth. */
export const certificateVerificationResponse = z
  .strictObject({
    certificate_number: z.string(),
    learner_name: z.string(),
    unit_code: z.string(),
    unit_title: z.string().describe("The unit's official title from the national register (the course's display name for a course recorded without one)"),
    issue_date: instant,
    status: z.enum(CERTIFICATE_STATUSES),
    revoked_at: instant.nullable().describe("When it was revoked (status revoked); the reason is never shown publicly"),
    replaced_by: z.string().nullable().describe("The number of the certificate that replaced it (status replaced)"),
    rto_name: z.string(),
    rto_code: z.string(),
  })
  .register(responses, { id: "CertificateVerification" });

export type CertificateVerificationResponse = z.input<typeof certificateVerificationResponse>;
export type UserResponse = z.input<typeof userResponse>;
export type SignInSettingsResponse = z.input<typeof signInSettingsResponse>;
export type StudentContactResponse = z.input<typeof studentContactResponse>;
export type StudentContactDetailResponse = z.input<typeof studentContactDetailResponse>;
export type CourseResponse = z.input<typeof courseResponse>;
export type EnrollmentResponse = z.input<typeof enrollmentResponse>;
export type CertificateResponse = z.input<typeof certificateResponse>;
export type AssessmentResponse = z.input<typeof assessmentResponse>;
export type TrainerEnrollmentResponse = z.input<typeof trainerEnrollmentResponse>;
export type DashboardStatsResponse = z.input<typeof dashboardStatsResponse>;
export type StudentDetailResponse = z.input<typeof studentDetailResponse>;
export type CourseDetailResponse = z.input<typeof courseDetailResponse>;

/** One entry of the audit trail (GET /api/admin/audit): field names only, never values. */
export const auditEntryResponse = z
  .strictObject({
    id: count,
    at: instant,
    action: z.enum(AUDIT_ACTION_NAMES),
    actor_id: id.nullable().describe("Who did it; null for a failed sign-in"),
    actor_email: z.string().nullable().describe("Their email at the time"),
    subject_type: z.string().nullable().describe("user, certificate, course or avetmiss"),
    subject_id: z.string().nullable(),
    subject_user_id: id.nullable().describe("The person the entry concerns"),
    subject_user_email: z.string().nullable(),
    client: z.string().nullable().describe("The client address the request came from"),
    fields: z.array(z.string()).describe("Names of the fields that changed"),
    detail: z.string().nullable(),
  })
  .register(responses, { id: "AuditEntry" });
/** The audit trail's hash chain, walked from its first entry for every answer. */
export const auditChainResponse = z
  .strictObject({
    intact: z.boolean().describe("Whether every entry matches its hash and links to the one before it"),
    through: count.describe("The last entry up to which the chain matches"),
    first_mismatch: count.nullable().describe("The first entry that does not match (changed, replaced or removed); null when intact"),
    message: z.string().describe('"Audit trail: chain intact through entry N; …", or what the first entry or checkpoint that does not match shows'),
    checkpoint: z
      .strictObject({
        number: z.int().min(1),
        through: count.describe("The last entry it covers: entries up to it were verified when it was made"),
        made_at: instant,
      })
      .nullable()
      .describe(
        "The newest checkpoint the background job signed with AUDIT_KEY, when it matches its signature and the trail; null when none was made yet (or it does not match)",
      ),
    mismatched_checkpoint: z.int().min(1).nullable().describe("The checkpoint that does not match (its signature, or the hash of the entry it names), or null"),
    pending: z
      .strictObject({ from: z.int().min(1), to: z.int().min(1) })
      .nullable()
      .describe("Entries after the checkpoint this answer did not check (more than one request checks), left to the next checkpoint; null when none"),
  })
  .register(responses, { id: "AuditChain" });
const totalExact = z.boolean().describe("false when more items match than `total` says: the list counts no further; narrow the filters");

export const auditPageResponse = z
  .strictObject({
    entries: z.array(auditEntryResponse),
    total: count,
    total_exact: totalExact,
    page: z.int().min(1),
    pages: z.int().min(1),
    chain: auditChainResponse,
  })
  .register(responses, { id: "AuditPage" });
export type AuditPageResponse = z.input<typeof auditPageResponse>;

/** One message of the outbox (GET /api/admin/mail): who it is to, what it says and how its delivery went. */
export const mailMessageResponse = z
  .strictObject({
    id,
    key: z.string().describe("What the message is about; unique, so a cause is mailed once"),
    template: z.enum(MAIL_TEMPLATES),
    subject: z.string(),
    state: z.enum(MAIL_STATES).describe("queued, sent, failed (will be retried at next_attempt_at) or given_up (waits for staff)"),
    attempts: count,
    recipient: z.strictObject({
      id: id.nullable().describe("null: a person without an account (a complainant), addressed by email"),
      name: z.string(),
      email: z.string(),
    }),
    created_at: instant,
    next_attempt_at: instant.describe("When it is next tried (queued and failed messages)"),
    sent_at: instant.nullable(),
    last_error: z.string().nullable().describe("What the mail server or the portal said at the last failed try"),
  })
  .register(responses, { id: "MailMessage" });
export const mailPageResponse = z
  .strictObject({ messages: z.array(mailMessageResponse), total: count, total_exact: totalExact, page: z.int().min(1), pages: z.int().min(1) })
  .register(responses, { id: "MailPage" });
export type MailPageResponse = z.input<typeof mailPageResponse>;
