import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import type { PublicUser } from "~/models/user.server";
import { refuseAtTheDoor } from "~/security.server";

/**
 * remix-serve hands Remix a Fetch Request with no socket, so the client's address (needed to
 * throttle sign-ins per client) and per-request log fields travel in AsyncLocalStorage,
 * entered once per HTTP request. The same hook is the security gate's front door: writes
 * from another site and oversized bodies are refused here, before any parsing.
 */
export interface RequestContext {
  address: string;
  userId?: string;
  started?: number;
  /** the session lookup of this request, shared by its loaders (see getOptionalUser) */
  session?: { cookie: string; user: Promise<PublicUser | null> };
}

const store = new AsyncLocalStorage<RequestContext>();
const INSTALLED = Symbol.for("portal.requestContextInstalled");

export function installRequestContext(): void {
  const proto = http.Server.prototype as unknown as Record<symbol, unknown> & {
    emit: (event: string, ...args: unknown[]) => boolean;
  };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      if (refuseAtTheDoor(req, args[1] as http.ServerResponse)) return true;
      return store.run({ address: req.socket.remoteAddress ?? "unknown", started: Date.now() }, () => emit.call(this, event, ...args));
    }
    return emit.call(this, event, ...args);
  };
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
