import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { isDatabaseUnavailable } from "#db/connection";
import { env } from "~/env.server";
import { isUploadPath, MAX_UPLOAD_BODY_BYTES } from "~/files/types";
import { jsonResponse } from "~/utils/http.server";
import { logLine } from "~/utils/log.server";
import { applySecurityHeaders, withSecurityHeaders } from "./headers.server";
import { logRequest, loggablePath } from "./request-log.server";

/**
 * The gate: what a request must satisfy before the app reads it. It stands in two places,
 * because some checks must run before Remix parses anything and others need Remix's request:
 *
 * - at the front door (`refuseAtTheGate`): a cross-site write, or one whose Origin is not the
 *   host it names (Remix would throw on it), is a 403, a declared body over
 *   1 MB a 413 (an upload path's limit is its files' at their largest), and an /api URL that does not decode a 400, answered without reading the body;
 * - around every route's loader and action (`gateRoutes`): a body of undeclared length is cut
 *   off at 1 MB, and resource routes get the security headers, their request-log line and a
 *   JSON 500 that never leaks a stack.
 */

export const MAX_BODY_BYTES = 1024 * 1024;

const MESSAGES = {
  crossSite: "Cross-site request refused",
  hostMismatch: "Request refused: its Origin does not match the host it was sent to (Host or X-Forwarded-Host)",
  tooLarge: "Request body is larger than 1 MB",
  badUrl: "The URL is not valid (a malformed percent-escape)",
  failed: "Something went wrong on our side. Please try again.",
} as const;

export const DATABASE_UNAVAILABLE = "The database is not answering. Please try again in a moment.";
/**
 * The Retry-After of every 503 that has none of its own: a database restart is over in seconds,
 * and a client told so comes back then rather than at once.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Gives a 503 its Retry-After unless it carries one (a busy password check sets its own). */
export function withRetryAfter(status: number, headers: Headers): void {
  if (status === 503 && !headers.has("Retry-After")) headers.set("Retry-After", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
}

/**
 * A browser tells where a write came from with Sec-Fetch-Site or Origin; either one naming
 * another site is refused. An older browser that sends neither still sends the page it posted
 * from (Referer), so that one naming another site is refused too. Clients that send none of them
 * (curl, server-to-server) carry no ambient browser credentials to forge with.
 */
export function isCrossSite(header: (name: string) => string | null | undefined): boolean {
  const site = header("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = header("origin");
  if (origin === "null") return true;
  if (origin) return !fromThisSite(origin, header);
  const referer = header("referer");
  return !!referer && !fromThisSite(referer, header);
}

/** Whether a URL a browser sent (an Origin, a Referer) names this site's host. */
function fromThisSite(url: string, header: (name: string) => string | null | undefined): boolean {
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    return false;
  }
  const allowed = new Set<string>();
  // X-Forwarded-Host is a proxy's word only behind proxies we were told of; from a client
  // alone it would let any page claim to be this site
  const forwarded = env().TRUST_PROXY > 0 ? header("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  if (forwarded) allowed.add(forwarded);
  const hostHeader = header("host");
  if (hostHeader) allowed.add(hostHeader);
  const appUrl = env().APP_URL;
  if (appUrl) allowed.add(new URL(appUrl).host);
  return allowed.has(host);
}

/**
 * Remix refuses a write whose Origin names a host other than the one the request says it was
 * sent to (the first X-Forwarded-Host, else Host), whatever a proxy is trusted for, by throwing
 * from inside its handler: an empty 500 and a stack trace in the log. The gate makes the same
 * comparison first and answers 403 with a message, so no such request reaches Remix.
 */
export function originMismatchesHost(header: (name: string) => string | null | undefined): boolean {
  const origin = header("origin");
  if (!origin || origin === "null") return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const sentTo = header("x-forwarded-host")?.split(",")[0]?.trim() || header("host");
  return originHost !== sentTo;
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The gate at the front door; true when it answered the request. */
/**
 * A body that may be larger than 1 MB: a multipart upload to a path that takes one. The same
 * path's ordinary form (a Student Profile's certificate buttons) keeps the 1 MB limit.
 */
function takesUpload(path: string, contentType: string | null | undefined): boolean {
  return isUploadPath(path) && (contentType ?? "").toLowerCase().startsWith("multipart/form-data");
}

export function refuseAtTheGate(req: IncomingMessage, res: ServerResponse): boolean {
  const path = (req.url ?? "/").split("?")[0]!;
  const api = path.startsWith("/api/");
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  let status = 0;
  let detail = "";
  if (api && !decodes(path)) {
    status = 400;
    detail = MESSAGES.badUrl;
  } else if (WRITE_METHODS.has(req.method ?? "GET")) {
    if (isCrossSite(header)) {
      status = 403;
      detail = MESSAGES.crossSite;
    } else if (originMismatchesHost(header)) {
      status = 403;
      detail = MESSAGES.hostMismatch;
    } else if (Number(header("content-length") ?? 0) > (takesUpload(path, header("content-type")) ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES)) {
      status = 413;
      detail = MESSAGES.tooLarge;
    }
  }
  if (!status) return false;
  logLine({ event: "refused", status, reason: detail, method: req.method, path });
  const headers = new Headers();
  applySecurityHeaders(headers);
  headers.set("Content-Type", api ? "application/json" : "text/html; charset=utf-8");
  const body = api
    ? JSON.stringify({ detail })
    : `<!DOCTYPE html><html lang="en-AU"><head><meta charset="utf-8"><title>${status} ${detail}</title></head><body><main><h1>${detail}</h1><p><a href="/">Back to Home</a></p></main></body></html>`;
  headers.set("Content-Length", String(Buffer.byteLength(body)));
  res.writeHead(status, Object.fromEntries(headers.entries()));
  res.end(body);
  discardBody(req);
  return true;
}

/** How much of a refused request's body is read and thrown away before the connection is cut. */
export const DISCARD_LIMIT_BYTES = 8 * MAX_BODY_BYTES;

/**
 * A refused request's client is usually still sending its body when the answer goes out.
 * Closing the connection at once would reset it under the client, which then reports a broken
 * pipe instead of our answer; so the rest of the body is read and dropped, and the connection
 * stays usable for the next request. A body that goes on past DISCARD_LIMIT_BYTES is not worth
 * the bandwidth: its connection is cut (the answer has been sent by then). Node's request
 * timeout bounds a client that sends slowly.
 */
function discardBody(req: IncomingMessage): void {
  let read = 0;
  req.on("data", (chunk: Buffer) => {
    read += chunk.length;
    if (read > DISCARD_LIMIT_BYTES) req.socket.destroy();
  });
  req.resume();
}

const isApi = (request: Request) => new URL(request.url).pathname.startsWith("/api/");

function refuse(request: Request, status: number, detail: string): Response {
  const response = isApi(request)
    ? jsonResponse({ detail }, { status })
    : new Response(detail, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  withRetryAfter(status, response.headers);
  return withSecurityHeaders(response);
}

/** Reads at most MAX_BODY_BYTES of a body of unknown length; null when it is larger. */
async function boundedBody(request: Request): Promise<Buffer | null> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

type DataFunction = (args: { request: Request; params: unknown; context: unknown }) => unknown;

/**
 * Every request has passed the front door, which refused cross-site writes and declared bodies
 * over 1 MB before anything was read; what only the route's Request can show is a body of
 * undeclared length (chunked), cut off here at 1 MB. Each check is made once.
 */
function gateWrite(fn: DataFunction, resource: boolean): DataFunction {
  return async (args) => {
    const { request } = args;
    let next = request;
    // an upload streams to disk and counts its own bytes (app/files/upload.server.ts)
    if (request.body && request.headers.get("Content-Length") === null && !takesUpload(new URL(request.url).pathname, request.headers.get("Content-Type"))) {
      const body = await boundedBody(request);
      if (!body) throw refuse(request, 413, MESSAGES.tooLarge);
      next = new Request(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body), signal: request.signal });
    }
    return answer(fn, { ...args, request: next }, resource);
  };
}

/** Resource routes never pass through entry.server: their headers and log line are added here. */
async function answer(fn: DataFunction, args: Parameters<DataFunction>[0], resource: boolean) {
  if (!resource) {
    try {
      return await fn(args);
    } catch (error) {
      // A page's error boundary shows the 503; any other error goes on as it was.
      if (!(error instanceof Response) && isDatabaseUnavailable(error)) throw refuse(args.request, 503, DATABASE_UNAVAILABLE);
      throw error;
    }
  }
  try {
    const result = await fn(args);
    if (result instanceof Response) {
      logRequest(args.request, result.status);
      return withSecurityHeaders(result);
    }
    return result;
  } catch (error) {
    if (error instanceof Response) {
      logRequest(args.request, error.status);
      throw withSecurityHeaders(error);
    }
    logLine({ event: "error", path: loggablePath(args.request), error: String(error) });
    if (isDatabaseUnavailable(error)) {
      logRequest(args.request, 503);
      throw refuse(args.request, 503, DATABASE_UNAVAILABLE);
    }
    logRequest(args.request, 500);
    throw refuse(args.request, 500, MESSAGES.failed);
  }
}

function gateRead(fn: DataFunction, resource: boolean): DataFunction {
  return (args) => answer(fn, args, resource);
}

/** Every route's loader and action, passed through the gate. */
export function gateRoutes(routes: ServerBuild["routes"]): ServerBuild["routes"] {
  const out: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(routes)) {
    const mod = route.module as unknown as Record<string, unknown>;
    const resource = typeof mod.default !== "function";
    const module: Record<string, unknown> = { ...mod };
    if (typeof mod.action === "function") module.action = gateWrite(mod.action as DataFunction, resource);
    if (typeof mod.loader === "function") module.loader = gateRead(mod.loader as DataFunction, resource);
    out[id] = { ...route, module: module as unknown as typeof route.module };
  }
  return out;
}
