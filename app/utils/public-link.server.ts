import { env } from "~/env.server";

/**
 * Links that leave the portal (in mail, printed on a certificate) are built here, so none can
 * carry an address an attacker chose: under APP_URL when it is set; without it, under the
 * request's own origin only when that origin is loopback (one machine, nothing public).
 * Otherwise there is no safe origin and the caller sends or prints no link.
 */

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/** The origin for outgoing links, or null when none can be trusted. */
export function linkOrigin(request: Request | null, appUrl: string | undefined = env().APP_URL): string | null {
  if (appUrl) return appUrl.replace(/\/+$/, "");
  if (!request) return null;
  const url = new URL(request.url);
  return isLoopbackHost(url.hostname) ? url.origin : null;
}

/** An absolute link to `path` (which starts with "/"), or null when no origin can be trusted. */
export function publicLink(request: Request | null, path: string, appUrl?: string): string | null {
  const origin = linkOrigin(request, appUrl ?? env().APP_URL);
  return origin ? `${origin}${path}` : null;
}
