import type http from "node:http";
import ipaddr from "ipaddr.js";
import { env } from "~/env.server";
import type { PublicUser } from "~/models/user.server";

/**
 * remix-serve hands Remix a Fetch Request with no socket, so the socket's address (who the
 * client is, for the rate limits) and the per-request fields of the request log are kept here, in a
 * context the front door opens once per HTTP request.
 *
 * The context is found from the request itself: the front door writes its key into the
 * request's CONTEXT_HEADER, over whatever a client sent under that name, and remix-serve copies
 * the headers into the Request every loader and action sees. A key names a context only in the
 * process that opened it and only until its response closes. (AsyncLocalStorage would carry the
 * context without a header, but on Node 20 it hooks every promise the process makes, and a
 * page's render makes hundreds: about 2% of the sign-in page's throughput and 4% of the
 * signed-in catalogue's, docs/decisions/006-performance.md.)
 */
export interface RequestContext {
  /** the socket's remote address */
  address: string;
  userId?: string;
  started?: number;
  /** the session lookup of this request, shared by its loaders (see getOptionalUser) */
  session?: { cookie: string; user: Promise<PublicUser | null> };
  /** set by the page cache when the rendered document may be stored under this key */
  pageCache?: { key: string; version: string };
  /** the answer being written (see answerHasRoom), and whether its last write found the buffer full */
  response?: http.ServerResponse;
  watched?: boolean;
  full?: boolean;
}

export const CONTEXT_HEADER = "x-portal-context";

const contexts = new Map<string, RequestContext>();
let opened = 0;

function open(context: RequestContext): string {
  const key = (++opened).toString(36);
  contexts.set(key, context);
  return key;
}

/**
 * Opens the context of an HTTP request at the front door (its socket's address and start
 * time); it is forgotten when the response closes, answered or abandoned.
 */
export function enterRequest(req: http.IncomingMessage, res: http.ServerResponse): RequestContext {
  const context: RequestContext = { address: req.socket.remoteAddress ?? "unknown", started: Date.now(), response: res };
  const key = open(context);
  req.headers[CONTEXT_HEADER] = key;
  res.once("close", () => contexts.delete(key));
  return context;
}

/** The context of a request the front door let in; undefined for one made in-process. */
export function requestContext(request: Request): RequestContext | undefined {
  const key = request.headers.get(CONTEXT_HEADER);
  return key === null ? undefined : contexts.get(key);
}

/**
 * Resolves once the request's answer may be written to again: at once unless the last write to
 * the response was refused as over its buffer's mark, else at that buffer's "drain" (or the
 * response's close, for a client that left). Remix writes a streamed body to the response as
 * fast as the body gives it and ignores Node's "buffer full" answer, so a download the client
 * (or the compression step) takes slowly would pile up in the worker's memory; a streamed body
 * (csvResponse, the AVETMISS zip) waits here before it reads its next batch (CONTRACT 23: no
 * worker over 300 MB). The response's write is watched from the first wait on, when express's
 * compression step has already put its own write in front: that is the write Remix calls, and
 * its "buffer full" is the compression stream's (whose "drain" the step hands to listeners of
 * the response's). A request made in-process has no response: no wait.
 */
export function answerHasRoom(request: Request): Promise<void> {
  const context = requestContext(request);
  const res = context?.response;
  if (!context || !res) return Promise.resolve();
  if (!context.watched) {
    context.watched = true;
    const write = res.write;
    res.write = function (this: http.ServerResponse, ...args: Parameters<typeof write>) {
      const accepted = write.apply(this, args);
      context.full = !accepted;
      return accepted;
    } as typeof write;
  }
  if (!context.full || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    // removed from whichever emitter holds it: the compression step registers a response's
    // "drain" listener on its own stream
    function drained(this: NodeJS.EventEmitter) {
      this.off("drain", drained);
      res!.off("close", closed);
      context!.full = false;
      resolve();
    }
    function closed() {
      resolve();
    }
    res.on("drain", drained);
    res.once("close", closed);
  });
}

/** The same, at the front door, before there is a Fetch Request. */
export function frontDoorContext(req: http.IncomingMessage): RequestContext | undefined {
  const key = req.headers[CONTEXT_HEADER];
  return typeof key === "string" ? contexts.get(key) : undefined;
}

/**
 * A Fetch Request for work the front door does for req before Remix: its path (a flash message
 * is for one page), its cookies and its context.
 */
export function frontDoorRequest(req: http.IncomingMessage): Request {
  const headers = new Headers();
  if (req.headers.cookie) headers.set("cookie", req.headers.cookie);
  const key = req.headers[CONTEXT_HEADER];
  if (typeof key === "string") headers.set(CONTEXT_HEADER, key);
  const url = new URL("http://front-door/");
  url.pathname = (req.url ?? "/").split("?")[0]!;
  return new Request(url, { headers });
}

/**
 * Calls fn with a copy of request that carries context, as if the front door had let it in
 * (for tests and in-process callers); the context is forgotten when fn has finished.
 */
export function withRequestContext<T>(request: Request, context: RequestContext, fn: (request: Request) => T): T {
  const key = open(context);
  const headers = new Headers(request.headers);
  headers.set(CONTEXT_HEADER, key);
  let result: T;
  try {
    result = fn(new Request(request, { headers }));
  } catch (error) {
    contexts.delete(key);
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => contexts.delete(key)) as T;
  contexts.delete(key);
  return result;
}

/** How many contexts are open in this process (for tests: each is forgotten when its response closes). */
export function openContexts(): number {
  return contexts.size;
}

/**
 * One client as the rate limits count it: an IPv4 address, or an IPv6 address's /64 (one
 * household or server usually holds a whole /64, so counting single addresses would give it
 * 2^64 tries). IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address.slice(0, 100);
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.kind() === "ipv4") return ip.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/64`).toString()}/64`;
}

/**
 * The address of the client: the socket's, or with TRUST_PROXY=N (N proxies in front, each
 * appending the address it was reached from to X-Forwarded-For) the entry N hops from the
 * right, which the nearest trusted proxy wrote. Entries further left come from the client and
 * are never believed. With fewer entries than hops the left-most is taken (a proxy in front
 * added it); an entry that is not an IP address leaves the socket's.
 */
export function forwardedAddress(socketAddress: string, forwardedFor: string | null, hops: number): string {
  if (hops <= 0 || !forwardedFor) return socketAddress;
  const entries = forwardedFor
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return socketAddress;
  const entry = entries[Math.max(0, entries.length - hops)]!;
  return ipaddr.isValid(entry) ? entry : socketAddress;
}

/** Who is asking, as the rate limits count clients (see clientKey and forwardedAddress). */
export function clientAddress(request: Request): string {
  const socket = requestContext(request)?.address ?? "unknown";
  return clientKey(forwardedAddress(socket, request.headers.get("x-forwarded-for"), env().TRUST_PROXY));
}
