import { z } from "zod";
import type { ApiOperation, Access } from "./operation";
import { ASSESSMENT_KINDS } from "~/schemas/evidence";
import { idempotencyKey } from "~/schemas/form-token";
import { IDEMPOTENCY_KEY_HEADER, SPENT_TOKEN_KEEP_DAYS } from "~/utils/form-token";
import { requests, responses } from "./schemas";
import { adminOperations } from "./operations/admin";
import { authOperations } from "./operations/auth";
import { certificatesOperations } from "./operations/certificates";
import { classesOperations } from "./operations/classes";
import { coursesOperations } from "./operations/courses";
import { enrollmentsOperations } from "./operations/enrollments";
import { evidenceOperations } from "./operations/evidence";
import { hrwOperations } from "./operations/hrw";
import { reviewOperations } from "./operations/review";
import { improvementOperations } from "./operations/improvements";
import { complaintOperations } from "./operations/complaints";
import { standardsOperations } from "./operations/standards";
import { employerOperations } from "./operations/employers";
import { webhookOperations } from "./operations/webhooks";
import { recognitionOperations } from "./operations/recognition";
import { recognitionRplOperations } from "./operations/recognition-rpl";

/**
 * The OpenAPI 3.1 description of /api, generated from the zod schemas the routes validate
 * with and answer in (z.toJSONSchema). `API_OPERATIONS` is the list of calls, one module per
 * area under operations/ (the routes import from app/api, never the other way round); a test
 * checks it against the route files and real answers against the schemas.
 */

/** GET /api/openapi.json: the document describes itself too. */
const documentItself: ApiOperation = {
  method: "get",
  path: "/api/openapi.json",
  operationId: "getOpenApiDocument",
  summary: "This document",
  description: "Anyone.",
  tags: ["meta"],
  access: "public",
  responses: { 200: { description: "The OpenAPI 3.1 document" } },
};

/** Every operation, in the order the document lists them. */
export const API_OPERATIONS: ApiOperation[] = [
  ...authOperations,
  ...adminOperations,
  ...coursesOperations,
  ...classesOperations,
  ...enrollmentsOperations,
  ...certificatesOperations,
  ...hrwOperations,
  ...evidenceOperations,
  ...reviewOperations,
  ...improvementOperations,
  ...complaintOperations,
  ...standardsOperations,
  ...employerOperations,
  ...webhookOperations,
  ...recognitionOperations,
  ...recognitionRplOperations,
  documentItself,
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
    // required when the schema refuses the parameter's absence
    const required = !(field as z.ZodType).safeParse(undefined).success;
    return { name, in: "query", required, ...(description ? { description } : {}), schema };
  });
}

/** The optional Idempotency-Key header of a call that stores money or seats (api/http.server.ts idempotencyOf). */
function idempotencyKeyParameter(): Record<string, unknown> {
  const { $schema: _s, ...schema } = z.toJSONSchema(idempotencyKey, { io: "input" }) as Record<string, unknown>;
  return {
    name: IDEMPOTENCY_KEY_HEADER,
    in: "header",
    required: false,
    description: `A key of your choosing (a fresh UUID per intended change) that makes a repeated call store once: the same key sent again by the same user is refused with a 409 naming it, and nothing is stored twice, whether the two calls come one after the other or at the same moment. Keys are kept ${SPENT_TOKEN_KEEP_DAYS} days and are yours alone: another user's key never refuses your call. Without the header the call is stored each time it is sent; a key that is not 1 to 255 visible ASCII characters is a 400 and nothing is stored.`,
    schema,
  };
}

const SECURITY: Record<Access, Array<Record<string, string[]>>> = {
  public: [],
  optional: [{}, { bearerAuth: [] }, { cookieAuth: [] }],
  required: [{ bearerAuth: [] }, { cookieAuth: [] }],
};

function operationObject(op: ApiOperation): Record<string, unknown> {
  const parameters: Array<Record<string, unknown>> = [];
  if (op.path.includes("{code}")) {
    parameters.push({ name: "code", in: "path", required: true, description: "A certificate's verification code", schema: { type: "string" } });
  }
  if (op.path.includes("{kind}")) {
    parameters.push({
      name: "kind",
      in: "path",
      required: true,
      description: "unit (a unit assessment) or hrw (a high-risk work licence assessment)",
      schema: { type: "string", enum: [...ASSESSMENT_KINDS] },
    });
  }
  if (op.path.includes("{id}")) {
    parameters.push({ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } });
  }
  if (op.query) parameters.push(...queryParameters(op.query));
  if (op.idempotent) parameters.push(idempotencyKeyParameter());
  const responsesObject: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(op.responses)) {
    const entry: Record<string, unknown> = { description: spec.description };
    if (spec.pdf) {
      entry.content = { "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } } };
    } else if (spec.binary) {
      entry.content = { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } };
    } else if (spec.zip) {
      entry.content = { "application/zip": { schema: { type: "string", contentMediaType: "application/zip" } } };
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
  if (op.fileParts) {
    operation.requestBody = {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: [op.fileParts],
            properties: { [op.fileParts]: { type: "array", items: { type: "string", contentMediaType: "application/octet-stream" } } },
          },
        },
      },
    };
  }
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
        'JSON in and out. Errors are `{"detail": "message"}` (validation errors add an `errors` object naming each field): 400/422 invalid input, 401 missing or bad credentials, 403 wrong role or inactive account, 404 unknown id, 409 conflict, 413 body over 1 MB, 415 body not JSON, 429 over a rate limit (with Retry-After), 405 unsupported method (with Allow). Send `Authorization: Bearer <access_token>` from POST /api/auth/login; GET calls also accept the browser session cookie, and a state-changing call authenticated only by the cookie must come from the same origin.',
    },
    servers: [{ url: "/" }],
    tags: [
      { name: "auth", description: "Signing in and out, registration, the current user" },
      { name: "courses", description: "The course catalogue" },
      { name: "student", description: "A signed-in user's own enrolments and certificates" },
      { name: "admin", description: "Administrator and trainer calls" },
      { name: "employer", description: "An employer's users: their organisation's bookings and workers" },
      { name: "complaints", description: "Complaints and appeals: lodging them, and the register's steps" },
      { name: "recognition", description: "Credit transfer and recognition of prior learning: applying, the staff's steps, the register" },
      { name: "meta", description: "This description" },
    ],
    paths,
    components: {
      schemas: { ...components(responses, "output"), ...components(requests, "input") },
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "The access_token from POST /api/auth/login" },
        cookieAuth: {
          type: "apiKey",
          in: "cookie",
          name: "__session",
          description: "The browser session of the HTML portal (named __Host-session when the portal is served over HTTPS)",
        },
      },
    },
  };
  return cached;
}
