import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import type { PublicUser } from "~/models/user.server";

/**
 * remix-serve hands Remix a Fetch Request with no socket, so the client's address (needed to
 * throttle sign-ins per client) and per-request log fields travel in AsyncLocalStorage,
 * entered once per HTTP request by the front door (front-door.server.ts).
 */
export interface RequestContext {
  address: string;
  userId?: string;
  started?: number;
  /** the session lookup of this request, shared by its loaders (see getOptionalUser) */
  session?: { cookie: string; user: Promise<PublicUser | null> };
}

const store = new AsyncLocalStorage<RequestContext>();
/** Runs the rest of an HTTP request in its context: the client's address and the start time. */
export function enterRequest<T>(req: http.IncomingMessage, fn: () => T): T {
  return store.run({ address: req.socket.remoteAddress ?? "unknown", started: Date.now() }, fn);
}

export function requestContext(): RequestContext | undefined {
  return store.getStore();
}

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return store.run(context, fn);
}

/**
 * Who is asking: the socket's address, or behind a trusted proxy (TRUST_PROXY=true) the
 * first X-Forwarded-For hop.
 */
export function clientAddress(request: Request): string {
  if (process.env.TRUST_PROXY === "true") {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded.slice(0, 100);
  }
  return store.getStore()?.address ?? "unknown";
}
