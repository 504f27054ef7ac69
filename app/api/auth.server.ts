import crypto from "node:crypto";
import type { DB } from "#db/connection";
import type { Role } from "#db/schema";
import { getDb } from "~/db.server";
import { publicUserColumns, toPublicUser, type PublicUser } from "~/models/user.server";
import { apiError } from "~/api/http.server";
import { logLine } from "~/utils/log.server";
import { randomToken, sha256 } from "~/security/password.server";
import { requestContext } from "~/http/request-context.server";
import { getSessionUser, sessionHasProviderSecondFactor } from "~/auth/session.server";
import { ACCOUNT_INACTIVE } from "~/auth/sign-in.server";
import { needsTwoStepSetUp, SET_UP_REQUIRED } from "~/auth/two-step.server";

export const TOKEN_TTL_HOURS = 24;

/** Issues an opaque access token; only its hash is stored. */
export async function issueApiToken(db: DB, userId: string, now = new Date()): Promise<string> {
  const token = randomToken(32);
  await db
    .insertInto("api_tokens")
    .values({
      id: crypto.randomUUID(),
      user_id: userId,
      token_hash: sha256(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + TOKEN_TTL_HOURS * 3600_000).toISOString(),
      last_used_at: null,
    })
    .execute();
  return token;
}

/** The user behind a bearer token, or null if it is unknown, expired, or the user may not sign in. */
export async function getTokenUser(db: DB, token: string): Promise<PublicUser | null> {
  if (!token || token.length > 200) return null;
  const row = await db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.user_id")
    .select(publicUserColumns)
    .where("api_tokens.token_hash", "=", sha256(token))
    .where("api_tokens.expires_at", ">", new Date().toISOString())
    .where("users.is_active", "=", 1)
    .where("users.approval_status", "=", "approved")
    .executeTakeFirst();
  return row ? toPublicUser(row) : null;
}

export async function revokeApiToken(db: DB, token: string): Promise<void> {
  await db.deleteFrom("api_tokens").where("token_hash", "=", sha256(token)).execute();
}

/**
 * The bearer token of a request: null without an Authorization header, "" for a header that
 * is not a well-formed bearer token (so it is refused rather than ignored).
 */
export function bearerTokenOf(request: Request): string | null {
  const header = request.headers.get("Authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match ? match[1]! : "";
}

/**
 * Whether an unexpired token that no longer signs anyone in belongs to an account that is
 * deactivated or not approved: such a caller is known but refused, a 403 rather than a 401.
 */
async function tokenOwnerIsInactive(db: DB, token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const row = await db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.user_id")
    .select("users.id")
    .where("api_tokens.token_hash", "=", sha256(token))
    .where("api_tokens.expires_at", ">", new Date().toISOString())
    .where((eb) => eb.or([eb("users.is_active", "!=", 1), eb("users.approval_status", "!=", "approved")]))
    .executeTakeFirst();
  return row !== undefined;
}

const SAFE_METHODS = new Set(["GET", "HEAD"]);

/**
 * The caller of an /api route: a bearer token, or for GET (and same-origin writes) the
 * browser's session cookie. Throws 401 without valid credentials and 403 for the wrong role,
 * as JSON `{detail}`.
 */
export async function requireApiUser(request: Request, ...roles: Role[]): Promise<PublicUser> {
  const db = getDb();
  const token = bearerTokenOf(request);
  let user: PublicUser | null = null;
  if (token !== null) {
    user = await getTokenUser(db, token);
    if (!user) {
      logLine({ event: "refused", reason: "token", method: request.method, path: new URL(request.url).pathname });
      if (await tokenOwnerIsInactive(db, token)) throw apiError(403, ACCOUNT_INACTIVE);
      throw apiError(401, "Invalid or expired token");
    }
  } else {
    const sameOrigin = request.headers.get("Sec-Fetch-Site") === "same-origin" || request.headers.get("Origin") !== null;
    if (SAFE_METHODS.has(request.method) || sameOrigin) user = await getSessionUser(db, request);
    if (!user) throw apiError(401, "Not authenticated");
  }
  const ctx = requestContext(request);
  if (ctx) ctx.userId = user.id;
  // An administrator who has not set up two-step sign-in can do nothing over the /api but sign out.
  // (a session whose identity provider reported a second factor satisfies the rule: single sign-on)
  if (
    user.role === "admin" &&
    new URL(request.url).pathname !== "/api/auth/logout" &&
    (await needsTwoStepSetUp(db, user)) &&
    !(token === null && (await sessionHasProviderSecondFactor(db, request)))
  ) {
    throw apiError(403, SET_UP_REQUIRED, { mfa_setup_required: true });
  }
  if (roles.length && !roles.includes(user.role)) {
    logLine({ event: "refused", reason: "role", method: request.method, path: new URL(request.url).pathname, user: user.id });
    throw apiError(403, "You do not have permission to do that");
  }
  return user;
}

/** The caller if any credentials were sent and are valid, else null (for routes open to all). */
export async function getOptionalApiUser(request: Request): Promise<PublicUser | null> {
  try {
    return await requireApiUser(request);
  } catch {
    return null;
  }
}
