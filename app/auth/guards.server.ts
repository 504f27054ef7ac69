import { redirect } from "@remix-run/node";
import type { Role } from "#db/schema";
import { getDb } from "~/db.server";
import type { PublicUser } from "~/models/user.server";
import { logLine } from "~/utils/log.server";
import { requestContext } from "~/http/request-context.server";
import { getSessionUser, sessionHasProviderSecondFactor } from "./session.server";
import { needsTwoStepSetUp } from "./two-step.server";

/** Where each role lands: /dashboard and a page refused for a role send it here. */
export const HOME_BY_ROLE: Record<Role, string> = { admin: "/admin", trainer: "/trainer", student: "/student", employer: "/employer" };

/**
 * The signed-in user, or null. A page's loaders (root, portal layout, page) run side by side
 * and all ask; on a GET they share one session lookup, kept in the request's context. Writes
 * always look again, since an action may have changed the user before its page renders.
 */
export async function getOptionalUser(request: Request): Promise<PublicUser | null> {
  const ctx = requestContext(request);
  const cookie = request.headers.get("Cookie") ?? "";
  const shared = ctx && (request.method === "GET" || request.method === "HEAD");
  if (shared && ctx.session?.cookie === cookie) return ctx.session.user;
  const lookup = getSessionUser(getDb(), request).then((user) => {
    if (ctx && user) ctx.userId = user.id;
    return user;
  });
  if (shared) ctx.session = { cookie, user: lookup };
  return lookup;
}

/** Where an administrator without a second step is sent, and the only page they may use until it is set up. */
export const SECURITY_PAGE = "/account/security";

/**
 * The signed-in user, or a redirect to /login that comes back here afterwards. An administrator
 * who must still set up two-step sign-in is sent to SECURITY_PAGE from every other page.
 */
export async function requireUser(request: Request): Promise<PublicUser> {
  const user = await requireSignedIn(request);
  // a sign-in whose identity provider reported a second factor satisfies the rule (single sign-on)
  if (user.role === "admin" && (await needsTwoStepSetUp(getDb(), user)) && !(await sessionHasProviderSecondFactor(getDb(), request)))
    throw redirect(SECURITY_PAGE);
  return user;
}

/** The signed-in user, whether or not their second step is set up (the security page, sign-out). */
export async function requireSignedIn(request: Request): Promise<PublicUser> {
  const user = await getOptionalUser(request);
  if (!user) {
    const url = new URL(request.url);
    // a client navigation's data request names the loaders it wants (_routes), and an older
    // client's names one (_data): the way back is the page, not that request
    url.searchParams.delete("_routes");
    url.searchParams.delete("_data");
    const back = url.pathname + url.search;
    const query = back !== "/" ? `?${new URLSearchParams({ redirectTo: back })}` : "";
    throw redirect(`/login${query}`);
  }
  return user;
}

/** A page for some roles only: anyone else goes to /dashboard, which sends them to their own portal. */
export async function requireRole(request: Request, ...roles: Role[]): Promise<PublicUser> {
  const user = await requireUser(request);
  if (!roles.includes(user.role)) {
    logLine({ event: "refused", reason: "role", method: request.method, path: new URL(request.url).pathname, user: user.id });
    throw redirect("/dashboard");
  }
  return user;
}

/** For /login and /register: a signed-in user has no business there. */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getOptionalUser(request)) throw redirect("/dashboard");
}
