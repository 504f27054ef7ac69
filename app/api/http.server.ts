import type { z } from "zod";
import { idempotencyKey } from "~/schemas/form-token";
import { isDomainError } from "~/utils/errors";
import { IDEMPOTENCY_KEY_HEADER } from "~/utils/form-token";
import { jsonResponse } from "~/utils/http.server";
import { parseWith } from "~/utils/validation";

/**
 * The plumbing every /api resource route shares: one handler per HTTP
 * method with 405 + Allow for the rest, JSON bodies read with a clear 4xx for a wrong content
 * type, malformed JSON or unknown fields, zod validation errors as `{detail, errors}`, and
 * domain errors mapped to their status. Routes stay thin adapters over the models.
 */

/** Every /api failure's body: `{detail}`, a sentence a person can read, plus any `extra` fields. */
export function apiError(status: number, detail: string, extra: Record<string, unknown> = {}): Response {
  return jsonResponse({ detail, ...extra }, { status });
}

/** Maps a thrown domain error to its /api answer; anything else is rethrown. */
export function apiErrorFrom(error: unknown): Response {
  if (error instanceof Response) return error;
  if (isDomainError(error)) {
    const extra = Object.keys(error.fieldErrors).length ? { errors: error.fieldErrors } : {};
    const response = apiError(error.status, error.message, extra);
    if (error.retryAfterSeconds) response.headers.set("Retry-After", String(error.retryAfterSeconds));
    return response;
  }
  throw error;
}

export type ApiMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface ApiArgs {
  request: Request;
  params: Record<string, string | undefined>;
}

type Handler = (args: ApiArgs) => Promise<Response>;

/** A JSON answer that no cache keeps (the /api speaks for one caller). */
export function apiJson<T>(data: T, init: number | ResponseInit = 200): Response {
  const response = jsonResponse(data, typeof init === "number" ? { status: init } : init);
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  return response;
}

function finish(response: Response): Response {
  try {
    if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
    if (response.status === 401 && !response.headers.has("WWW-Authenticate")) {
      response.headers.set("WWW-Authenticate", 'Bearer realm="api"');
    }
    return response;
  } catch {
    return response; // immutable headers: leave as is
  }
}

/** The Allow header for a set of handlers (GET implies HEAD; OPTIONS always answers). */
export function allowHeader(methods: readonly ApiMethod[]): string {
  const out: string[] = [];
  if (methods.includes("GET")) out.push("GET", "HEAD");
  for (const m of methods) if (m !== "GET") out.push(m);
  out.push("OPTIONS");
  return out.join(", ");
}

/**
 * One resource route: a handler per method. Export the result as both `loader` and `action`
 * so every method reaches it. Unsupported methods get 405 with `Allow`; OPTIONS gets 204 with
 * `Allow`; thrown Responses and DomainErrors become their JSON answers; anything else is left
 * to the gate's JSON 500 (a bug, never bad input).
 */
export function apiRoute(handlers: Partial<Record<ApiMethod, Handler>>) {
  const methods = Object.keys(handlers) as ApiMethod[];
  const allow = allowHeader(methods);
  return async (args: ApiArgs): Promise<Response> => {
    const method = args.request.method.toUpperCase();
    if (method === "OPTIONS") return new Response(null, { status: 204, headers: { Allow: allow } });
    const handler = method === "HEAD" ? handlers.GET : handlers[method as ApiMethod];
    if (!handler) {
      const refused = apiError(405, `Method ${method} is not allowed here; use ${methods.join(" or ")}`);
      refused.headers.set("Allow", allow);
      return finish(refused);
    }
    try {
      return finish(await handler(args));
    } catch (error) {
      return finish(apiErrorFrom(error));
    }
  };
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * The request's JSON object body. Throws (as a Response): 415 for a body that is not declared
 * as JSON, 413 over 1 MB, 400 for an empty body (unless `optional`), malformed JSON or a
 * value that is not an object.
 */
export async function readJsonBody(request: Request, options: { optional?: boolean } = {}): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await request.text();
  } catch {
    throw apiError(400, "The request body could not be read");
  }
  if (text.trim() === "") {
    if (options.optional) return {};
    throw apiError(400, "A JSON request body is required");
  }
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!JSON_TYPE.test(type)) {
    throw apiError(415, "Send the request body as JSON with Content-Type: application/json");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw apiError(400, "The request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw apiError(400, "The request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/**
 * Validates input with a (strict) zod schema; throws 422 `{detail, errors}` naming each bad or
 * unknown field. `extra` joins the error body (registration adds success/message).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, extra?: (detail: string) => Record<string, unknown>): z.infer<S> {
  const parsed = parseWith(schema, input, { strict: true });
  if (parsed.success) return parsed.data;
  throw apiError(422, parsed.message, { ...(extra?.(parsed.message) ?? {}), errors: parsed.fieldErrors });
}

/**
 * A PUT's body laid over the record as it stands: PUT calls are partial, so a field left out
 * keeps its value, and the whole is checked with the operation's one schema, as the form's full
 * post is. `current` is the record in the request's own field names; a field it holds as null
 * is left to the schema (its default, or its message when the field is required).
 */
export function parsePartialInput<S extends z.ZodObject>(schema: S, body: Record<string, unknown>, current: object): z.infer<S> {
  const recorded = current as Record<string, unknown>;
  const kept = Object.keys(schema.shape).filter((key) => recorded[key] !== null && recorded[key] !== undefined);
  return parseInput(schema, { ...Object.fromEntries(kept.map((key) => [key, recorded[key]])), ...body });
}

/**
 * The call's optional Idempotency-Key header, as the model's one-time token: the same key sent
 * again by the same user is refused (409) and stores nothing twice. Without it the call works
 * as it always did; a key the /api cannot keep is a 400 before anything is read or stored.
 */
export function idempotencyOf(request: Request): { token: string; from: "idempotency-key" } | undefined {
  const header = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (header === null) return undefined;
  const parsed = parseWith(idempotencyKey, header);
  if (!parsed.success) throw apiError(400, parsed.message);
  return { token: parsed.data, from: "idempotency-key" };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id: anything that is not a UUID cannot name a record, so it is the same 404. */
export function pathId(params: ApiArgs["params"], what: string): string {
  const id = params.id ?? "";
  if (!UUID.test(id)) throw apiError(404, `${what} not found`);
  return id.toLowerCase();
}

/** The query string as a plain object (first value of each name) for a zod schema. */
export function queryObject(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URL(request.url).searchParams) if (!(key in out)) out[key] = value;
  return out;
}
