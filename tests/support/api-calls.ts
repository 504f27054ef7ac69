import crypto from "node:crypto";
import type { DB } from "#db/connection";
import type { Role } from "#db/schema";
import { issueApiToken } from "~/api/auth.server";
import { withRequestContext } from "~/http/request-context.server";
import { createSession } from "~/auth/session.server";
import { multipartRequest } from "./evidence-files";
import { makeUser } from "./factories";

/**
 * Test support for the /api route tests (vitest): calls a route module's loader or action the
 * way Remix would, as a given caller.
 */

export interface RouteModule {
  loader?: (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown;
  action?: (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown;
}

export interface CallOptions {
  token?: string | null;
  cookie?: string | null;
  /** a value to send as JSON */
  json?: unknown;
  /** a multipart/form-data body streamed from files or bytes (an upload) */
  multipart?: { fields?: Record<string, string>; files: Parameters<typeof multipartRequest>[2] };
  /** a raw body with its own content type */
  body?: string;
  contentType?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  /** the client address the rate limits see */
  client?: string;
  /** the origin the request was sent to (its Host), http://localhost unless told */
  origin?: string;
}

const MUTATIONS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A route's answer as a Response the test can read: a Response as it is; a page's data as Remix
 * sends it, with the status and headers of `data()` (200 for a plain object) and the value as
 * JSON (page data holds only JSON's types: instants are ISO text).
 */
export function asResponse(answer: unknown): Response {
  if (answer instanceof Response) return answer;
  const withInit = answer as { type?: unknown; data?: unknown; init?: ResponseInit | null } | null;
  if (withInit?.type === "DataWithResponseInit") return Response.json(withInit.data ?? null, withInit.init ?? {});
  return Response.json(answer ?? null);
}

/** Calls a route as Remix does: mutations reach the action, everything else the loader. */
export async function call(mod: RouteModule, method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.cookie) headers.set("Cookie", options.cookie);
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("Content-Type", options.contentType ?? "application/json");
  } else if (options.body !== undefined) {
    body = options.body;
    if (options.contentType) headers.set("Content-Type", options.contentType);
  }
  const url = `${options.origin ?? "http://localhost"}${path}`;
  const request = options.multipart
    ? multipartRequest(url, options.multipart.fields ?? {}, options.multipart.files, Object.fromEntries(headers))
    : new Request(url, { method, headers, body });
  const fn = MUTATIONS.has(method) ? mod.action : mod.loader;
  if (!fn) throw new Error(`The route has no ${MUTATIONS.has(method) ? "action" : "loader"}`);
  const client = options.client ?? `test-${crypto.randomUUID()}`;
  return withRequestContext(request, { address: client }, async (request) => {
    try {
      return asResponse(await fn({ request, params: options.params ?? {}, context: {} }));
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  });
}

export async function bodyOf<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

export interface Caller {
  id: string;
  email: string;
  token: string;
}

/** A user of a role with a live API token. */
export async function caller(db: DB, role: Role, overrides: Parameters<typeof makeUser>[1] = {}): Promise<Caller> {
  const user = await makeUser(db, { role, ...overrides });
  return { ...user, token: await issueApiToken(db, user.id) };
}

/** A browser session cookie ("__session=…") for a user. */
export async function sessionCookie(db: DB, userId: string): Promise<string> {
  const setCookie = await createSession(db, userId);
  return setCookie.split(";")[0]!;
}
