import { z } from "zod";
import {
  certificateResponse,
  courseDetailResponse,
  courseResponse,
  courseUpdateRequest,
  dashboardStatsResponse,
  enrollmentRequest,
  enrollmentResponse,
  errorResponse,
  loginRequest,
  logoutRequest,
  registerFailureResponse,
  registerRequest,
  registerResponse,
  requests,
  responses,
  STUDENT_LIST_DEFAULT_PAGE_SIZE,
  studentDetailResponse,
  studentListQuery,
  studentUpdateRequest,
  tokenResponse,
  userResponse,
} from "./schemas";

/**
 * The OpenAPI 3.1 description of /api, generated from the zod schemas the routes validate
 * with and answer in (z.toJSONSchema). `API_OPERATIONS` is the list of calls; a test checks it
 * against the route files and real answers against the schemas.
 */

export type HttpMethod = "get" | "post" | "put";

/** Who may call: nobody needs credentials, credentials are optional, or they are required. */
type Access = "public" | "optional" | "required";

interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  array?: boolean;
  pdf?: boolean;
  headers?: Record<string, { description: string; schema: Record<string, unknown> }>;
}

export interface ApiOperation {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  access: Access;
  body?: z.ZodType;
  bodyRequired?: boolean;
  query?: z.ZodObject;
  responses: Record<number, ResponseSpec>;
}

const err = (description: string): ResponseSpec => ({ description, schema: errorResponse });
const UNAUTHENTICATED = err("No, invalid or expired credentials");
const FORBIDDEN = err("Signed in with a role that may not do this");
const MALFORMED = err("Malformed JSON, an empty body or a body that is not a JSON object");
const INVALID = err("Invalid or unknown fields; `errors` names each one");
const WRONG_TYPE = err("The body is not sent as application/json");
const TOO_LARGE = err("The body is larger than 1 MB");
const pagingHeader = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } });

export const API_OPERATIONS: ApiOperation[] = [
  {
    method: "post",
    path: "/api/auth/login",
    operationId: "login",
    summary: "Sign in and receive an access token",
    description:
      "Checks the email and password. An unknown email and a wrong password get the same 401. Repeated failures for one email or one client are throttled (429).",
    tags: ["auth"],
    access: "public",
    body: loginRequest,
    bodyRequired: true,
    responses: {
      200: { description: "Signed in; send the token as `Authorization: Bearer <token>` (valid 24 hours)", schema: tokenResponse },
      400: MALFORMED,
      401: err("Invalid email or password"),
      403: err("The account is awaiting approval, was not approved, or is inactive"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
      429: err("Too many sign-in attempts; try again later"),
    },
  },
  {
    method: "post",
    path: "/api/auth/register",
    operationId: "register",
    summary: "Create an account",
    description:
      "Students are active at once; trainers and administrators wait for an administrator's approval before they can sign in.",
    tags: ["auth"],
    access: "public",
    body: registerRequest,
    bodyRequired: true,
    responses: {
      201: { description: "Account created", schema: registerResponse },
      400: { description: "Malformed JSON or a body that is not a JSON object", schema: registerFailureResponse },
      409: { description: "An account with this email already exists", schema: registerFailureResponse },
      413: TOO_LARGE,
      415: { description: "The body is not sent as application/json", schema: registerFailureResponse },
      422: { description: "Invalid or unknown fields; `errors` names each one", schema: registerFailureResponse },
    },
  },
  {
    method: "post",
    path: "/api/auth/logout",
    operationId: "logout",
    summary: "Sign out",
    description:
      "Revokes the bearer token sent (or ends the browser session when called with the session cookie). With `{\"everywhere\": true}` every session and token of the user ends.",
    tags: ["auth"],
    access: "required",
    body: logoutRequest,
    bodyRequired: false,
    responses: {
      204: { description: "Signed out" },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
  {
    method: "get",
    path: "/api/auth/me",
    operationId: "getCurrentUser",
    summary: "The signed-in user",
    description: "Any signed-in user. Never contains a password hash or token.",
    tags: ["auth"],
    access: "required",
    responses: { 200: { description: "The user", schema: userResponse }, 401: UNAUTHENTICATED },
  },
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
    description: `Trainers and administrators. An array of students, newest first, searched and paged on the server (default ${STUDENT_LIST_DEFAULT_PAGE_SIZE} per page); the paging figures travel in the X-Total-Count, X-Page, X-Page-Size and X-Page-Count headers.`,
    tags: ["admin"],
    access: "required",
    query: studentListQuery,
    responses: {
      200: {
        description: "One page of students",
        schema: userResponse,
        array: true,
        headers: {
          "X-Total-Count": pagingHeader("Students matching the filters"),
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
    description: "Administrators. The student with enrolments, certificates, files, assessments and a summary.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: { description: "The student detail", schema: studentDetailResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No student has this id"),
    },
  },
  {
    method: "put",
    path: "/api/admin/students/{id}",
    operationId: "updateStudent",
    summary: "Update a student (partial)",
    description:
      "Administrators. Fields left out stay as they are. Deactivating (is_active false) ends the student's sessions and tokens at once.",
    tags: ["admin"],
    access: "required",
    body: studentUpdateRequest,
    bodyRequired: true,
    responses: {
      200: { description: "The updated student", schema: userResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No student has this id"),
      409: err("Another account already uses this email"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
  {
    method: "get",
    path: "/api/courses",
    operationId: "listCourses",
    summary: "Course list",
    description:
      "Anyone. Without credentials, and for students, the active courses only; trainers and administrators get every course with its is_active. Ordered by tier then name.",
    tags: ["courses"],
    access: "optional",
    responses: { 200: { description: "The courses", schema: courseResponse, array: true } },
  },
  {
    method: "get",
    path: "/api/admin/courses/{id}",
    operationId: "getCourse",
    summary: "Course detail",
    description: "Administrators. The course with its enrolment figures and five most recent enrolments.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: { description: "The course detail", schema: courseDetailResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No course has this id"),
    },
  },
  {
    method: "put",
    path: "/api/admin/courses/{id}",
    operationId: "updateCourse",
    summary: "Update a course (partial)",
    description: "Administrators. Fields left out stay as they are; the status toggle sends only is_active. Blank list entries are dropped.",
    tags: ["admin"],
    access: "required",
    body: courseUpdateRequest,
    bodyRequired: true,
    responses: {
      200: { description: "The updated course", schema: courseResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No course has this id"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
  {
    method: "get",
    path: "/api/enrollments/my",
    operationId: "listMyEnrollments",
    summary: "My enrolments",
    description: "Any signed-in user; only their own enrolments, newest first.",
    tags: ["student"],
    access: "required",
    responses: { 200: { description: "The enrolments", schema: enrollmentResponse, array: true }, 401: UNAUTHENTICATED },
  },
  {
    method: "post",
    path: "/api/enrollments",
    operationId: "enrol",
    summary: "Enrol in a course",
    description: "Any signed-in user enrols themselves in an active course. One enrolment per course.",
    tags: ["student"],
    access: "required",
    body: enrollmentRequest,
    bodyRequired: true,
    responses: {
      201: { description: "Enrolled", schema: enrollmentResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      404: err("No active course has this id"),
      409: err("Already enrolled in this course"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
  {
    method: "get",
    path: "/api/certificates/my",
    operationId: "listMyCertificates",
    summary: "My certificates",
    description: "Any signed-in user; only their own certificates, newest first.",
    tags: ["student"],
    access: "required",
    responses: { 200: { description: "The certificates", schema: certificateResponse, array: true }, 401: UNAUTHENTICATED },
  },
  {
    method: "get",
    path: "/api/certificates/{id}/download",
    operationId: "downloadCertificate",
    summary: "Download a certificate as PDF",
    description:
      "The certificate's owner, trainers and administrators; for anyone else it does not exist (404). Saved as certificate_{id}.pdf.",
    tags: ["student"],
    access: "required",
    responses: {
      200: { description: "The PDF, as an attachment", pdf: true },
      304: { description: "Not modified (If-None-Match matched the ETag)" },
      401: UNAUTHENTICATED,
      404: err("No certificate with this id that the caller may see"),
      503: err("The PDF could not be produced right now; retry shortly"),
    },
  },
  {
    method: "get",
    path: "/api/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This document",
    description: "Anyone.",
    tags: ["meta"],
    access: "public",
    responses: { 200: { description: "The OpenAPI 3.1 document" } },
  },
];

const ref = (registry: typeof requests, schema: z.ZodType): Record<string, unknown> => {
  const id = registry.get(schema)?.id;
  if (!id) throw new Error("A schema used by an operation is not registered");
  return { $ref: `#/components/schemas/${id}` };
};

function components(registry: typeof requests, io: "input" | "output"): Record<string, Record<string, unknown>> {
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io });
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema as Record<string, unknown>;
    out[name] = rest;
  }
  return out;
}

function queryParameters(query: z.ZodObject): Array<Record<string, unknown>> {
  return Object.entries(query.shape).map(([name, field]) => {
    const { $schema: _s, description, ...schema } = z.toJSONSchema(field as z.ZodType, { io: "input" }) as Record<string, unknown>;
    return { name, in: "query", required: false, ...(description ? { description } : {}), schema };
  });
}

const SECURITY: Record<Access, Array<Record<string, string[]>>> = {
  public: [],
  optional: [{}, { bearerAuth: [] }, { cookieAuth: [] }],
  required: [{ bearerAuth: [] }, { cookieAuth: [] }],
};

function operationObject(op: ApiOperation): Record<string, unknown> {
  const parameters: Array<Record<string, unknown>> = [];
  if (op.path.includes("{id}")) {
    parameters.push({ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } });
  }
  if (op.query) parameters.push(...queryParameters(op.query));
  const responsesObject: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(op.responses)) {
    const entry: Record<string, unknown> = { description: spec.description };
    if (spec.pdf) {
      entry.content = { "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } } };
    } else if (spec.schema) {
      const schema = ref(responses, spec.schema);
      entry.content = { "application/json": { schema: spec.array ? { type: "array", items: schema } : schema } };
    } else if (op.path === "/api/openapi.json" && status === "200") {
      entry.content = { "application/json": { schema: { type: "object" } } };
    }
    if (spec.headers) entry.headers = spec.headers;
    responsesObject[status] = entry;
  }
  const operation: Record<string, unknown> = {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: op.tags,
    security: SECURITY[op.access],
    responses: responsesObject,
  };
  if (parameters.length) operation.parameters = parameters;
  if (op.body) {
    operation.requestBody = {
      required: op.bodyRequired ?? true,
      content: { "application/json": { schema: ref(requests, op.body) } },
    };
  }
  return operation;
}

let cached: Record<string, unknown> | undefined;

/** The whole document; built once per process. */
export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of API_OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = operationObject(op);
  }
  cached = {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Crane & Rigging Training Portal API",
      version: "1.0.0",
      description:
        "JSON in and out. Errors are `{\"detail\": \"message\"}` (validation errors add an `errors` object naming each field): 400/422 invalid input, 401 missing or bad credentials, 403 wrong role or inactive account, 404 unknown id, 409 conflict, 413 body over 1 MB, 415 body not JSON, 429 throttled, 405 unsupported method (with Allow). Send `Authorization: Bearer <access_token>` from POST /api/auth/login; GET calls also accept the browser session cookie, and a state-changing call authenticated only by the cookie must come from the same origin.",
    },
    servers: [{ url: "/" }],
    tags: [
      { name: "auth", description: "Signing in and out, registration, the current user" },
      { name: "courses", description: "The course catalogue" },
      { name: "student", description: "A signed-in user's own enrolments and certificates" },
      { name: "admin", description: "Administrator and trainer calls" },
      { name: "meta", description: "This description" },
    ],
    paths,
    components: {
      schemas: { ...components(responses, "output"), ...components(requests, "input") },
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "The access_token from POST /api/auth/login" },
        cookieAuth: { type: "apiKey", in: "cookie", name: "__session", description: "The browser session of the HTML portal" },
      },
    },
  };
  return cached;
}
