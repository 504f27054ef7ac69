import { z } from "zod";
import { ASSESSMENT_STATUSES, TIERS } from "#db/schema";
import { YEAR_INVALID, YEAR_OUT_OF_RANGE, yearNotYetMessage } from "~/schemas/avetmiss-exports-text";
import { organisationYear } from "~/utils/organisation-calendar";
import { cleanSearchTerm, requiredText, searchTerm, uuid } from "./fields";
import { STUDENT_ISSUES, STUDENT_STATUSES } from "./student-filters";

/**
 * Query strings and small forms of pages, kept out of the route modules so the browser bundle
 * does not carry zod: a schema built at the top of a route module runs in the browser too, and
 * brings the whole library with it. Only loaders and actions use these.
 */

/** A list's `?page=`: a missing or unreadable page is the first. */
const pageNumber = z.coerce.number().int().min(1).max(1_000_000).catch(1);

/** A plain list's query string: only its page. */
export const pageQuery = z.object({ page: pageNumber });

/**
 * The catalogue's query string; anything unexpected falls back to "all courses" rather than
 * failing, and a missing or unreadable page to the first.
 */
export const catalogueQuery = z.object({
  q: searchTerm(),
  tier: z.enum(["all", ...TIERS] as [string, ...string[]]).catch("all"),
  page: pageNumber,
});

/** The admin overview's approve/reject form. */
export const accountDecisionSchema = z.object({
  intent: z.enum(["approve", "reject"], { message: "Unknown action" }),
  user_id: z.string().uuid("Unknown account"),
});

/** The student list's query string; anything unreadable falls back to the plain list. */
export const studentListQuerySchema = z.object({
  q: searchTerm(),
  status: z.enum(STUDENT_STATUSES).catch("all"),
  issue: z.enum(STUDENT_ISSUES).nullable().catch(null),
  page: pageNumber,
});

const wholeNumberText = (label: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, `${label} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `${label} must be between 1 and ${max}`);

export const STUDENT_LIST_DEFAULT_PAGE_SIZE = 100;

/**
 * GET /api/admin/students: search, filters and paging (the paging figures travel in headers).
 * Unlike the page's query above, a program is told what it sent wrong (422), never given a
 * different list than it asked for.
 */
export const studentListApiQuery = z.object({
  q: z
    .string()
    .max(200, "Search must be at most 200 characters")
    .transform((v) => cleanSearchTerm(v, 200))
    .optional()
    .describe("Search in name and email"),
  status: z.enum(STUDENT_STATUSES, { message: "status must be all, active or inactive" }).optional(),
  issue: z.enum(STUDENT_ISSUES, { message: `issue must be one of ${STUDENT_ISSUES.join(", ")}` }).optional(),
  page: wholeNumberText("page", 100_000).optional().describe("1-based page; a page past the end gives the last page"),
  page_size: wholeNumberText("page_size", 100).optional().describe(`Students per page, 1 to 100 (default ${STUDENT_LIST_DEFAULT_PAGE_SIZE})`),
});

/** The trainer's assessment list: search, status filter and page. */
export const assessmentListQuery = z.object({
  q: searchTerm(),
  status: z.enum(ASSESSMENT_STATUSES).nullable().catch(null),
  page: pageNumber,
});

/** The record-assessment form's search for a student's enrolment. */
export const enrollmentOptionQuery = z.object({ q: searchTerm() });

/** A searched list's query string: the term and the page (the trainer's students, the credential matrix's trainers). */
export const searchedListQuery = z.object({
  q: searchTerm(),
  page: pageNumber,
});

const COURSE_LIST_STATUSES = ["all", "active", "inactive"] as const;

/** The administrator's course list filter. */
export const courseListStatus = z.enum(COURSE_LIST_STATUSES).catch("all");

/** The course list's status button: the course and the inverse of its current state. */
export const courseToggleSchema = z.object({
  intent: z.literal("toggle"),
  course_id: uuid,
  is_active: z.enum(["true", "false"]).transform((v) => v === "true"),
});

/** The calendar year of an AVETMISS report (the reports page, its downloads and GET /api/admin/avetmiss). */
export const avetmissYearQuery = z.object({
  year: z
    .string({ message: YEAR_INVALID })
    .trim()
    .regex(/^\d{4}$/, YEAR_INVALID)
    .transform(Number)
    .refine((y) => y >= 1980 && y <= 2099, { message: YEAR_OUT_OF_RANGE, abort: true })
    // a year still to come has no activity to report (dates in it are plans); this year is
    // judged on the organisation's calendar, at the moment of asking
    .superRefine((y, ctx) => {
      const thisYear = organisationYear();
      if (y > thisYear) ctx.addIssue({ code: "custom", message: yearNotYetMessage(y, thisYear) });
    })
    .describe("The calendar year reported, four digits from 1980 to this year on the organisation's calendar (e.g. 2025)"),
});

/** The reports page's readiness list: a record to find and a page. */
export const readinessQuery = z.object({
  find: searchTerm(),
  page: pageNumber,
});

/** The trainer's "issue certificate" button. */
export const certificateIssueSchema = z.object({
  enrollment_id: z.string({ message: "Choose an enrolment to certify" }).trim().pipe(z.uuid("Choose an enrolment to certify")),
});

/** Why an administrator revokes a certificate: kept with the record, never shown publicly. */
export const revocationReason = requiredText("Reason", 500, { multiline: true });

/** Revoking a certificate (the /api body; the certificate is in the URL). */
export const certificateRevokeSchema = z.object({ reason: revocationReason });

/** The Revoke and Reissue buttons on a student's profile, one pair per certificate in force. */
export const certificateChangeSchema = z.discriminatedUnion(
  "intent",
  [z.object({ intent: z.literal("revoke"), certificate_id: uuid, reason: revocationReason }), z.object({ intent: z.literal("reissue"), certificate_id: uuid })],
  { error: "Choose Revoke or Reissue for a certificate" },
);

/** /admin/staff: reset a staff member's two-step sign-in (a lost phone). */
export const staffTwoStepResetSchema = z.object({ intent: z.literal("reset-two-step"), user_id: uuid });

/** PUT /api/admin/staff/{id}: deactivate or reactivate a staff account (the person is in the URL). */
export const staffActiveSchema = z.object({ is_active: z.boolean({ message: "is_active must be true or false" }) });

/** The Staff page's Deactivate / Reactivate button. */
export const staffToggleSchema = z.object({
  intent: z.literal("toggle"),
  user_id: uuid,
  is_active: z.enum(["true", "false"]).transform((v) => v === "true"),
});
