import { type ApiOperation, BODY_FAILURES, err, FORBIDDEN, pagingHeader, UNAUTHENTICATED } from "../operation";
import {
  auditPageResponse,
  dashboardStatsResponse,
  mailPageResponse,
  signInSettingsRequest,
  signInSettingsResponse,
  staffUpdateRequest,
  studentAsReadResponse,
  studentDetailAsReadResponse,
  studentUpdateRequest,
  userResponse,
} from "../schemas";
import { AUDIT_PAGE_SIZE } from "~/rules/audit-actions";
import { auditQuery } from "~/schemas/audit";
import { mailListQuery } from "~/schemas/mail";
import { MAIL_PAGE_SIZE, RETRY_MINUTES } from "~/models/outbox.server";
import { STUDENT_COUNT_LIMIT } from "~/models/student.server";
import { avetmissYearQuery, STUDENT_LIST_DEFAULT_PAGE_SIZE, studentListApiQuery } from "~/schemas/page-queries";

/** How the OpenAPI document describes the admin calls. */
export const adminOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/dashboard/stats",
    operationId: "getDashboardStats",
    summary: "Dashboard figures",
    description: "Trainers and administrators.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: { description: "The figures", schema: dashboardStatsResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
    },
  },
  {
    method: "get",
    path: "/api/admin/students",
    operationId: "listStudents",
    summary: "Student list",
    description: `Trainers and administrators. Administrators read each student whole; trainers read the contact fields and \`usi_status\` only (never the USI, date of birth, address, emergency contact, licence number or AVETMISS details). An array of students, newest first, searched and paged on the server (default ${STUDENT_LIST_DEFAULT_PAGE_SIZE} per page); the paging figures travel in the X-Total-Count, X-Page, X-Page-Size and X-Page-Count headers. A search (\`q\`) or an issue list counts its matches up to ${STUDENT_COUNT_LIMIT}: when more match, X-Total-Count says ${STUDENT_COUNT_LIMIT}, X-Total-Count-Exact says false and the pages go that far; narrow the search to reach the rest.`,
    tags: ["admin"],
    access: "required",
    query: studentListApiQuery,
    responses: {
      200: {
        description: "One page of students",
        schema: studentAsReadResponse,
        array: true,
        headers: {
          "X-Total-Count": pagingHeader("Students matching the filters (at most the count limit for a search)"),
          "X-Total-Count-Exact": { description: "false when more students match a search than X-Total-Count says", schema: { type: "boolean" } },
          "X-Page": pagingHeader("This page (1-based)"),
          "X-Page-Size": pagingHeader("Students per page"),
          "X-Page-Count": pagingHeader("Pages in all"),
        },
      },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      422: err("Invalid query parameters; `errors` names each one"),
    },
  },
  {
    method: "get",
    path: "/api/admin/students/{id}",
    operationId: "getStudent",
    summary: "Student detail",
    description:
      "Administrators: the student with their AVETMISS enrolment details, enrolments, certificates, files, assessments and a summary. Trainers: the student's contact fields and `usi_status`, with the enrolments, certificates, assessments and summary (no USI, date of birth, address, emergency contact, licence number, AVETMISS details or files).",
    tags: ["admin"],
    access: "required",
    responses: {
      200: { description: "The student detail, as the caller's role may read it", schema: studentDetailAsReadResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No student has this id"),
    },
  },
  {
    method: "get",
    path: "/api/learner-documents/{id}",
    operationId: "downloadLearnerDocument",
    summary: "A learner's document (White Card, photo ID, licence)",
    description:
      "The learner themself or an administrator: the document as an attachment (Content-Disposition) with X-Content-Type-Options: nosniff, its type the one read from its bytes. Every administrator's download is written to the audit trail. Anyone else, or a document recorded without its bytes, is told it does not exist. `files` of GET /api/admin/students/{id} lists them with this address.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: { description: "The file's bytes", binary: true },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No document the caller may see has this id"),
    },
  },
  {
    method: "put",
    path: "/api/admin/students/{id}",
    operationId: "updateStudent",
    summary: "Update a student (partial)",
    description:
      "Administrators. Fields left out stay as they are. Deactivating (is_active false) ends the student's sessions and tokens at once. A changed `usi` clears its verification; `usi_verified: true` records the caller's verification of the USI as it stands after the change, and an exemption code (INDIV, INTOFF) sent as `usi` counts as verified at once (the administrator recording it is the check), issuing any certificate that waited for it.",
    tags: ["admin"],
    access: "required",
    body: studentUpdateRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: { description: "The updated student", schema: userResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No student has this id"),
      409: err("Another account already uses this email"),
    },
  },
  {
    method: "put",
    path: "/api/admin/staff/{id}",
    operationId: "updateStaff",
    summary: "Deactivate or reactivate a trainer or administrator",
    description:
      "Administrators. `is_active: false` switches the account off and ends its sessions and API tokens at once; `true` switches it back on. Never one's own account, never the last active administrator (409).",
    tags: ["admin"],
    access: "required",
    body: staffUpdateRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: { description: "The account as it now is", schema: userResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No trainer or administrator has this id"),
      409: err("One's own account, or the last active administrator"),
    },
  },
  {
    method: "get",
    path: "/api/admin/sign-in-settings",
    operationId: "getSignInSettings",
    summary: "How staff sign in",
    description:
      "Administrators. The identity provider's name (null when single sign-on is not configured) and whether trainers and administrators must sign in with it.",
    tags: ["admin"],
    access: "required",
    responses: { 200: { description: "The settings", schema: signInSettingsResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
  {
    method: "put",
    path: "/api/admin/sign-in-settings",
    operationId: "updateSignInSettings",
    summary: "Require single sign-on for staff, or allow passwords again",
    description:
      "Administrators. `require_sso_for_staff: true` makes trainers' and administrators' passwords stop working at once (the break-glass administrator made by `npm run admin:create` keeps one); `false` lets them work again. Audited when it changes. Turning it on while no provider is configured is a 409.",
    tags: ["admin"],
    access: "required",
    body: signInSettingsRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: { description: "The settings as they now are", schema: signInSettingsResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      409: err("No identity provider is configured"),
    },
  },
  {
    method: "get",
    path: "/api/admin/avetmiss",
    operationId: "exportAvetmiss",
    summary: "AVETMISS report for a year (zip)",
    description:
      "Administrators. The NCVER VET Provider Collection files for the calendar year (NAT00010, NAT00020, NAT00030, NAT00060, NAT00080, NAT00085, NAT00090, NAT00100, NAT00120 and NAT00130, fixed-width ASCII with CRLF line ends) as avetmiss-YYYY.zip. A collection year reports the activity dated in it (its start and end dates, on the organisation's calendar). A year with no training activity is a 404 with its reason (there is nothing to lodge); a year outside 1980-2099, or after this one, is a 422.",
    tags: ["admin"],
    access: "required",
    query: avetmissYearQuery,
    responses: {
      200: { description: "avetmiss-YYYY.zip, as an attachment", zip: true },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No training activity in that year: nothing to report"),
      422: err("The year is missing, not four digits, outside 1980-2099, or still to come"),
    },
  },
  {
    method: "get",
    path: "/api/admin/audit",
    operationId: "listAudit",
    summary: "Audit trail",
    description: `Administrators. Security-relevant events (sign-ins, second-step changes, password changes, USI views and changes, certificates, AVETMISS exports, student record edits, staff decisions, course edits), newest first, ${AUDIT_PAGE_SIZE} per page, with the filters of /admin/audit (days on the RTO's calendar). Entries name changed fields, never their values. \`chain\` says whether the trail's hash chain is intact, or which entry (or signed checkpoint) is the first that does not match: it checks the newest checkpoint and the entries after it, and names the checkpoint.`,
    tags: ["admin"],
    access: "required",
    query: auditQuery,
    responses: {
      200: { description: "One page of entries", schema: auditPageResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      422: err("Invalid query parameters; `errors` names each one"),
    },
  },
  {
    method: "get",
    path: "/api/admin/mail",
    operationId: "listMail",
    summary: "Mail (the outbox)",
    description: `Administrators. Every mail the portal has queued, newest first, ${MAIL_PAGE_SIZE} per page, with the filters of /admin/mail: its recipient, subject, state, attempts, times and the last error. A failed message is retried ${RETRY_MINUTES.length} times (after ${RETRY_MINUTES.join(", ")} minutes), then given up until an administrator sends it again on /admin/mail.`,
    tags: ["admin"],
    access: "required",
    query: mailListQuery,
    responses: {
      200: { description: "One page of messages", schema: mailPageResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      422: err("Invalid query parameters; `errors` names each one"),
    },
  },
];
