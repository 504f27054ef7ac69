import type { DB } from "#db/connection";
import { getUserById, getUserRowByEmail, recordLogin, type PublicUser } from "~/models/user.server";
import type { LoginInput } from "~/schemas/auth";
import { DomainError, tooMany } from "~/utils/errors";
import { logLine } from "~/utils/log.server";
import { decoyHash, verifyPassword } from "./password.server";
import { beginSignInAttempt, recordSignInSuccess, THROTTLE_WINDOW_MINUTES } from "./throttle.server";

export const INVALID_CREDENTIALS = "Invalid email or password";
export const AWAITING_APPROVAL = "Your account is awaiting approval by an administrator";
export const ACCOUNT_INACTIVE = "Your account is inactive. Please contact the training office.";
export const ACCOUNT_REJECTED = "Your account request was not approved. Please contact the training office.";
export const TOO_MANY_ATTEMPTS = `Too many sign-in attempts. Please wait ${THROTTLE_WINDOW_MINUTES} minutes and try again.`;

/**
 * Checks credentials for the form and the /api alike. The same message answers an unknown
 * email and a wrong password; account state is told only to someone who knows the password.
 */
export async function signIn(db: DB, input: LoginInput & { client: string }): Promise<PublicUser> {
  const attempt = await beginSignInAttempt(db, { email: input.email, client: input.client });
  if (attempt === null) {
    logLine({ event: "sign-in-throttled", client: input.client });
    throw tooMany(TOO_MANY_ATTEMPTS, THROTTLE_WINDOW_MINUTES * 60);
  }

  const row = await getUserRowByEmail(db, input.email);
  const ok = await verifyPassword(input.password, row?.password_hash ?? (await decoyHash()));
  if (!row || !ok) {
    logLine({ event: "sign-in-failed", client: input.client, known_email: Boolean(row) });
    throw new DomainError(401, INVALID_CREDENTIALS);
  }
  await recordSignInSuccess(db, attempt);
  if (row.approval_status === "pending") throw new DomainError(403, AWAITING_APPROVAL);
  if (row.approval_status === "rejected") throw new DomainError(403, ACCOUNT_REJECTED);
  if (row.is_active !== 1) throw new DomainError(403, ACCOUNT_INACTIVE);
  await recordLogin(db, row.id);
  return (await getUserById(db, row.id))!;
}
