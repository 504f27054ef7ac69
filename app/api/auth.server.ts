import type { DB } from "#db/connection";
import type { Role } from "#db/schema";
import { requireApiUser } from "~/auth/api.server";
import { sha256 } from "~/auth/password.server";
import { ACCOUNT_INACTIVE } from "~/auth/sign-in.server";
import { getDb } from "~/db.server";
import type { PublicUser } from "~/models/user.server";
import { apiError } from "~/utils/http.server";

/** The bearer token of a request: null without an `Authorization: Bearer` header. */
export function bearerTokenOf(request: Request): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec((request.headers.get("Authorization") ?? "").trim());
  return match ? match[1]! : null;
}

/**
 * Whether an unexpired token that no longer signs anyone in belongs to an account that is
 * deactivated or not approved. (Deactivating through the portal deletes the tokens outright,
 * so this covers accounts switched off any other way.)
 */
async function tokenOwnerIsInactive(db: DB, token: string): Promise<boolean> {
  if (token.length > 200) return false;
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

/**
 * The caller of an /api route (requireApiUser: bearer token, or the session cookie for GET
 * and same-origin writes), with CONTRACT.md's 403 for a token whose account is inactive.
 */
export async function apiCaller(request: Request, ...roles: Role[]): Promise<PublicUser> {
  try {
    return await requireApiUser(request, ...roles);
  } catch (error) {
    if (error instanceof Response && error.status === 401) {
      const token = bearerTokenOf(request);
      if (token && (await tokenOwnerIsInactive(getDb(), token))) throw apiError(403, ACCOUNT_INACTIVE);
    }
    throw error;
  }
}
