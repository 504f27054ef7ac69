import type { z } from "zod";
import { errorResponse } from "./schemas";

/**
 * One /api operation as the OpenAPI document describes it. The operations of each area live in
 * operations/ beside the schemas they name; app/api/openapi.ts assembles the document.
 */

export type HttpMethod = "get" | "post" | "put" | "delete";

/** Who may call: nobody needs credentials, credentials are optional, or they are required. */
export type Access = "public" | "optional" | "required";

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  array?: boolean;
  pdf?: boolean;
  /** the answer is a file's bytes (an attachment of the type named in its Content-Type) */
  binary?: boolean;
  /** the answer is a zip archive (an attachment) */
  zip?: boolean;
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
  /** the body is multipart/form-data with files in parts of this name (evidence uploads) */
  fileParts?: string;
  query?: z.ZodObject;
  /** the call takes an optional Idempotency-Key header: the same key sent again stores nothing twice (a 409) */
  idempotent?: true;
  responses: Record<number, ResponseSpec>;
}

export const err = (description: string): ResponseSpec => ({ description, schema: errorResponse });
export const UNAUTHENTICATED = err("No, invalid or expired credentials");
export const FORBIDDEN = err("Signed in with a role that may not do this");
export const MALFORMED = err("Malformed JSON, an empty body or a body that is not a JSON object");
export const INVALID = err("Invalid or unknown fields; `errors` names each one");
export const WRONG_TYPE = err("The body is not sent as application/json");
export const TOO_LARGE = err("The body is larger than 1 MB");
/** What every call that reads a JSON body may answer before it looks at the fields' meaning. */
export const BODY_FAILURES = { 400: MALFORMED, 413: TOO_LARGE, 415: WRONG_TYPE, 422: INVALID } as const;
/** The 409 of an Idempotency-Key the caller already used (an idempotent operation's responses). */
export const KEY_USED = "The Idempotency-Key was already used by you: nothing was stored twice";
export const pagingHeader = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } });
