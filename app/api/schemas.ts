import { z } from "zod";
import { loginSchema, registrationSchema, ROLES } from "~/schemas/auth";
import { coursePatchSchema } from "~/schemas/course";
import { enrollmentPayloadSchema } from "~/schemas/enrollment";
import { studentPatchSchema } from "~/schemas/student";
import { STUDENT_ISSUES, STUDENT_STATUSES } from "~/models/student.server";

/**
 * The /api's payloads and answers as zod schemas: the request bodies are the very schemas the
 * HTML forms use (made strict, so an unknown field is a 422 rather than silently dropped), and
 * the responses describe what the models return. Both feed the OpenAPI document
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
export const courseUpdateRequest = coursePatchSchema.strict().register(requests, { id: "CourseUpdate" });
export const enrollmentRequest = enrollmentPayloadSchema.strict().register(requests, { id: "EnrollmentRequest" });
export const logoutRequest = z.strictObject({
  everywhere: z
    .boolean({ message: "everywhere must be true or false" })
    .optional()
    .describe("true ends every session and token of the user, not just this token"),
}).register(requests, { id: "LogoutRequest" });

const wholeNumberText = (label: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `${label} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `${label} must be between 1 and ${max}`);

export const STUDENT_LIST_DEFAULT_PAGE_SIZE = 100;

/** GET /api/admin/students query: search, filters and paging (paging info in headers). */
export const studentListQuery = z.object({
  q: z.string().max(200, "Search must be at most 200 characters").optional().describe("Search in name and email"),
  status: z.enum(STUDENT_STATUSES, { message: "status must be all, active or inactive" }).optional(),
  issue: z.enum(STUDENT_ISSUES, { message: `issue must be one of ${STUDENT_ISSUES.join(", ")}` }).optional(),
  page: wholeNumberText("page", 100_000).optional().describe("1-based page; a page past the end gives the last page"),
  page_size: wholeNumberText("page_size", 100)
    .optional()
    .describe(`Students per page, 1 to 100 (default ${STUDENT_LIST_DEFAULT_PAGE_SIZE})`),
});

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

const id = z.uuid();
const instant = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time");
const TIERS = ["tier_1", "tier_2", "tier_3"] as const;
const ENROLLMENT_STATUSES = ["enrolled", "in_progress", "completed", "withdrawn"] as const;
const ASSESSMENT_STATUSES = ["passed", "failed", "in_progress", "resubmission"] as const;
const count = z.int().min(0);
const percentage = z.int().min(0).max(100);

export const errorResponse = z
  .strictObject({
    detail: z.string(),
    errors: z.record(z.string(), z.string()).optional().describe("Message per invalid or unknown field"),
  })
  .register(responses, { id: "Error" });

export const tokenResponse = z
  .strictObject({ access_token: z.string().min(20), token_type: z.literal("bearer") })
  .register(responses, { id: "Token" });

export const registerResponse = z
  .strictObject({ success: z.literal(true), message: z.string() })
  .register(responses, { id: "RegisterSuccess" });

export const registerFailureResponse = z
  .strictObject({
    success: z.literal(false),
    message: z.string(),
    detail: z.string(),
    errors: z.record(z.string(), z.string()).optional(),
  })
  .register(responses, { id: "RegisterFailure" });

/** Spec section 3 'User/student': never the password hash. */
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
  })
  .register(responses, { id: "User" });

export const courseResponse = z
  .strictObject({
    id,
    unit_code: z.string(),
    name: z.string(),
    description: z.string(),
    tier: z.enum(TIERS),
    duration_hours: z.number().min(0),
    price: z.number().min(0).describe("Dollars with cents"),
    is_active: z.boolean(),
    prerequisites: z.array(z.string()),
    learning_outcomes: z.array(z.string()),
    assessment_criteria: z.array(z.string()),
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

export const certificateResponse = z
  .strictObject({
    id,
    certificate_number: z.string(),
    tier_achieved: z.enum(TIERS),
    issue_date: instant,
    course: z.strictObject({ id, name: z.string(), unit_code: z.string() }),
  })
  .register(responses, { id: "Certificate" });

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

export const studentDetailResponse = z
  .strictObject({
    student: userResponse,
    enrollments: z.array(enrollmentResponse),
    certificates: z.array(certificateResponse),
    files: z.array(
      z.strictObject({
        id,
        filename: z.string(),
        file_type: z.string(),
        upload_date: instant,
        description: z.string().nullable(),
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

export type UserResponse = z.input<typeof userResponse>;
export type CourseResponse = z.input<typeof courseResponse>;
export type EnrollmentResponse = z.input<typeof enrollmentResponse>;
export type CertificateResponse = z.input<typeof certificateResponse>;
export type DashboardStatsResponse = z.input<typeof dashboardStatsResponse>;
export type StudentDetailResponse = z.input<typeof studentDetailResponse>;
export type CourseDetailResponse = z.input<typeof courseDetailResponse>;
