import { env, isLoopbackHost } from "~/env.server";

/**
 * Links that leave the portal are built here, so none can carry an address an attacker chose.
 * A certificate prints documentOrigin (APP_URL, else this machine's address). A mail's link is
 * under APP_URL when it is set; without it, under the request's own origin only when that
 * origin is loopback (env.server's isLoopbackHost, the one loopback rule); otherwise there is
 * no safe origin and the mail is not sent.
 */

/**
 * The origin printed on documents that outlive the request that made them (a certificate's
 * verification URL): APP_URL, else this machine's own address. Never the request's: a Host
 * header is the client's to choose, and each new one would print (and render) a new document.
 */
export function documentOrigin(settings: { APP_URL?: string; PORT: number } = env()): string {
  return settings.APP_URL ? settings.APP_URL.replace(/\/+$/, "") : `http://localhost:${settings.PORT}`;
}

/** The origin for outgoing links, or null when none can be trusted. */
export function linkOrigin(request: Request | null, appUrl: string | undefined = env().APP_URL): string | null {
  if (appUrl) return appUrl.replace(/\/+$/, "");
  if (!request) return null;
  const url = new URL(request.url);
  return isLoopbackHost(url.hostname) ? url.origin : null;
}

/**
 * An absolute link to `path` (which starts with "/"), or null when no origin can be trusted: the
 * one way a link leaves the portal in a mail, a redirect to another site or a document. A link
 * that carries a secret (a reset or an invitation) is built here too: under a forged Host it
 * would hand a live token to someone else's site.
 */
export function publicLink(request: Request | null, path: string, appUrl: string | undefined = env().APP_URL): string | null {
  const origin = linkOrigin(request, appUrl);
  return origin ? `${origin}${path}` : null;
}

/** The page a reset link opens, with its one-time token. */
export function passwordResetLink(request: Request, token: string, appUrl: string | undefined = env().APP_URL): string | null {
  return publicLink(request, `/reset-password/${encodeURIComponent(token)}`, appUrl);
}

/** The pages an invitation opens: a worker's place in a booking, or an employer's account. */
export type InvitationPage = "/invitation" | "/employer-invitation";

/** The link in an invitation mail, with its one-time token. */
export function invitationLink(
  request: Request,
  token: string,
  page: InvitationPage = "/invitation",
  appUrl: string | undefined = env().APP_URL,
): string | null {
  return publicLink(request, `${page}/${encodeURIComponent(token)}`, appUrl);
}
