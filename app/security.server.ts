import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requestContext } from "./auth/request-context.server";
import { logLine } from "./utils/log.server";

/**
 * The one gate every request passes (wired in app/server-entry.ts): security headers,
 * refusal of cross-site writes, the 1 MB body limit, and a JSON 500 that never leaks a stack
 * for resource routes.
 */

export const MAX_BODY_BYTES = 1024 * 1024;

export function contentSecurityPolicy(nonce: string | null): string {
  const dev = process.env.NODE_ENV === "development";
  const script = nonce ? `'self' 'nonce-${nonce}'` : "'self'";
  return [
    "default-src 'self'",
    `script-src ${script}`,
    // sonner injects its stylesheet at run time
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws://localhost:* ws://127.0.0.1:*" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function applySecurityHeaders(headers: Headers, nonce: string | null = null): void {
  headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (process.env.NODE_ENV === "production") {
    headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
}

function withHeaders(response: Response): Response {
  try {
    applySecurityHeaders(response.headers);
    return response;
  } catch {
    // Response.redirect() and fetch responses have immutable headers
    const copy = new Response(response.body, response);
    applySecurityHeaders(copy.headers);
    return copy;
  }
}

const isApi = (request: Request) => new URL(request.url).pathname.startsWith("/api/");

function refuse(request: Request, status: number, detail: string): Response {
  const response = isApi(request)
    ? json({ detail }, { status })
    : new Response(detail, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return withHeaders(response);
}

/**
 * A browser tells where a write came from with Sec-Fetch-Site or Origin; either one naming
 * another site is refused. Clients that send neither (curl, server-to-server) carry no
 * ambient browser credentials to forge with.
 */
export function isCrossSite(header: (name: string) => string | null | undefined): boolean {
  const site = header("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = header("origin");
  if (!origin) return false;
  if (origin === "null") return true;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const allowed = new Set<string>();
  const forwarded = header("x-forwarded-host")?.split(",")[0]?.trim();
  if (forwarded) allowed.add(forwarded);
  const host = header("host");
  if (host) allowed.add(host);
  if (process.env.APP_URL) allowed.add(new URL(process.env.APP_URL).host);
  return !allowed.has(originHost);
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The gate at the HTTP layer, before express and Remix: a cross-site write is a 403 and a
 * declared body over 1 MB a 413, answered without reading the body. Returns true when it
 * answered.
 */
export function refuseAtTheDoor(req: IncomingMessage, res: ServerResponse): boolean {
  if (!WRITE_METHODS.has(req.method ?? "GET")) return false;
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  let status = 0;
  let detail = "";
  if (isCrossSite(header)) {
    status = 403;
    detail = "Cross-site request refused";
  } else if (Number(header("content-length") ?? 0) > MAX_BODY_BYTES) {
    status = 413;
    detail = "Request body is larger than 1 MB";
  }
  if (!status) return false;
  const path = (req.url ?? "/").split("?")[0]!;
  logLine({ event: "refused", status, reason: detail, method: req.method, path });
  const headers = new Headers();
  applySecurityHeaders(headers);
  const api = path.startsWith("/api/");
  headers.set("Content-Type", api ? "application/json" : "text/html; charset=utf-8");
  headers.set("Connection", "close");
  const body = api
    ? JSON.stringify({ detail })
    : `<!DOCTYPE html><html lang="en-AU"><head><meta charset="utf-8"><title>${status} ${detail}</title></head><body><main><h1>${detail}</h1><p><a href="/">Back to Home</a></p></main></body></html>`;
  res.writeHead(status, Object.fromEntries(headers.entries()));
  res.end(body);
  req.resume();
  return true;
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

function guardWrite(fn: DataFunction, resource: boolean): DataFunction {
  return async (args) => {
    const { request } = args;
    if (isCrossSite((name) => request.headers.get(name))) {
      logLine({ event: "refused", reason: "cross-site", method: request.method, path: new URL(request.url).pathname });
      throw refuse(request, 403, "Cross-site request refused");
    }
    const length = Number(request.headers.get("Content-Length") ?? "NaN");
    let next = request;
    if (Number.isFinite(length)) {
      if (length > MAX_BODY_BYTES) throw refuse(request, 413, "Request body is larger than 1 MB");
    } else if (request.body) {
      const body = await boundedBody(request);
      if (!body) throw refuse(request, 413, "Request body is larger than 1 MB");
      next = new Request(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body), signal: request.signal });
    }
    return callGuarded(fn, { ...args, request: next }, resource);
  };
}

/** Resource routes never pass through entry.server, so their request line is written here. */
function logResource(request: Request, status: number) {
  const ctx = requestContext();
  logLine({
    method: request.method,
    path: new URL(request.url).pathname,
    status,
    ms: ctx?.started ? Date.now() - ctx.started : undefined,
    user: ctx?.userId ?? null,
  });
}

async function callGuarded(fn: DataFunction, args: Parameters<DataFunction>[0], resource: boolean) {
  if (!resource) return fn(args);
  try {
    const result = await fn(args);
    if (result instanceof Response) {
      logResource(args.request, result.status);
      return withHeaders(result);
    }
    return result;
  } catch (error) {
    if (error instanceof Response) {
      logResource(args.request, error.status);
      throw withHeaders(error);
    }
    logLine({ event: "error", path: new URL(args.request.url).pathname, error: String(error) });
    logResource(args.request, 500);
    throw refuse(args.request, 500, "Something went wrong on our side. Please try again.");
  }
}

function guardRead(fn: DataFunction, resource: boolean): DataFunction {
  return (args) => callGuarded(fn, args, resource);
}

/** Wraps every route's loader and action with the gate. */
export function guardRoutes(routes: ServerBuild["routes"]): ServerBuild["routes"] {
  const out: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(routes)) {
    const mod = route.module as unknown as Record<string, unknown>;
    const resource = typeof mod.default !== "function";
    const module: Record<string, unknown> = { ...mod };
    if (typeof mod.action === "function") module.action = guardWrite(mod.action as DataFunction, resource);
    if (typeof mod.loader === "function") module.loader = guardRead(mod.loader as DataFunction, resource);
    out[id] = { ...route, module: module as unknown as typeof route.module };
  }
  return out;
}
