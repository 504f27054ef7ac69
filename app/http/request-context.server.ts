import { AsyncLocalStorage } from "node:async_hooks";
import type http from "node:http";
import ipaddr from "ipaddr.js";
import { env } from "~/env.server";
import type { PublicUser } from "~/models/user.server";

/**
 * remix-serve hands Remix a Fetch Request with no socket, so the socket's address (who the
 * client is, for throttling) and the per-request fields of the request log travel in
 * AsyncLocalStorage, entered once per HTTP request by the front door.
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
}

const store = new AsyncLocalStorage<RequestContext>();

/** Runs the rest of an HTTP request in its context: the socket's address and the start time. */
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
 * One client as the throttles count it: an IPv4 address, or an IPv6 address's /64 (one
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
  const entries = forwardedFor.split(",").map((s) => s.trim()).filter(Boolean);
  if (entries.length === 0) return socketAddress;
  const entry = entries[Math.max(0, entries.length - hops)]!;
  return ipaddr.isValid(entry) ? entry : socketAddress;
}

/** Who is asking, as the throttles count clients (see clientKey and forwardedAddress). */
export function clientAddress(request: Request): string {
  const socket = store.getStore()?.address ?? "unknown";
  return clientKey(forwardedAddress(socket, request.headers.get("x-forwarded-for"), env().TRUST_PROXY));
}
