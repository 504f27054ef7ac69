import { writeTransaction, type DB } from "#db/connection";
import { getUserById, getUserRowByEmail, recordLogin, type PublicUser } from "~/models/user.server";
import { recordAuditAlone } from "~/models/audit.server";
import type { LoginInput } from "~/schemas/auth";
import { DomainError, isDomainError, tooMany } from "~/utils/errors";
import { logLine } from "~/utils/log.server";
import { decoyHash, hashPassword, needsRehash, verifyPassword } from "~/security/password.server";
import {
  clearRateLimit,
  giveBackRateLimit,
  isKnownClient,
  rememberClient,
  RATE_LIMITS,
  takeRateLimit,
  type RateLimitDecision,
  type Taken,
} from "~/security/rate-limits.server";
import { createSession, type PendingStep } from "./session.server";
import { signInSettings } from "~/models/sign-in-settings.server";
import { providerSettings } from "./single-sign-on.server";
import { checkSecondStep, CODE_REQUIRED, hasTwoStep, needsTwoStepSetUp, SET_UP_REQUIRED } from "./two-step.server";

export const INVALID_CREDENTIALS = "Invalid email or password";
export const AWAITING_APPROVAL = "Your account is awaiting approval by an administrator";
export const ACCOUNT_INACTIVE = "Your account is inactive. Please contact the training office.";
export const ACCOUNT_REJECTED = "Your account request was not approved. Please contact the training office.";
export const STEP_USED = "This sign-in has already been completed. Please sign in again.";
export const STEP_EXPIRED = "Your sign-in took too long. Please sign in again.";
export const SSO_REQUIRED = (provider: string) => `Staff sign in with ${provider} here: use the "Sign in with ${provider}" button.`;
export const TOO_MANY_ATTEMPTS = `Too many sign-in attempts. Please wait ${RATE_LIMITS.signInAccount.windowMinutes} minutes and try again.`;

/** The password was right and the account has a second step: ask for its code (the form on a page of its own). */
export class SecondStepRequired extends DomainError {
  constructor(readonly userId: string) {
    super(401, CODE_REQUIRED);
  }
}

/** An administrator without a second step signing in over the /api, which cannot set one up. */
export class SecondStepSetUpRequired extends DomainError {
  constructor() {
    super(403, SET_UP_REQUIRED);
  }
}

/**
 * Takes one password check under the rate limits, or refuses it, before any hashing: the
 * attempt counts as a failure from the start and is given back only if the password proves
 * right, so however many guesses arrive at once, no more than the limit are ever evaluated.
 * A client the account knows has a limit of its own for it; every client has one over all
 * accounts.
 */
export function takeSignInAttempt(db: DB, who: { email: string; client: string }): Promise<RateLimitDecision> {
  return writeTransaction(db, async (trx) => {
    const perAccount = (await isKnownClient(trx, who)) ? RATE_LIMITS.signInKnownClient : RATE_LIMITS.signInAccount;
    return takeRateLimit(trx, [perAccount, RATE_LIMITS.signInClient], who);
  });
}

/**
 * The password was right: the attempt does not count, this client's own failures for the account
 * are cleared, and the client is known to the account from now on. The failures of clients the
 * account does not know stay counted (as do the client's over all accounts): an owner signing in
 * must not give a guesser elsewhere five more tries, since at most five wrong passwords are
 * evaluated per account in the window. The owner's known clients have a limit of their own.
 */
export function recordSignInSuccess(db: DB, who: { email: string; client: string }, taken: Taken): Promise<void> {
  return writeTransaction(db, async (trx) => {
    await giveBackRateLimit(trx, taken);
    await clearRateLimit(trx, RATE_LIMITS.signInKnownClient, who);
    await rememberClient(trx, who);
  });
}

/**
 * A password proven right whose hash was made at another cost is hashed again at today's: the
 * only moment the password itself is at hand. Only the hash just verified is replaced, so a
 * password changed meanwhile stays as changed.
 */
async function rehashPassword(db: DB, userId: string, verified: string, password: string): Promise<void> {
  const fresh = await hashPassword(password);
  await writeTransaction(db, (trx) =>
    trx.updateTable("users").set({ password_hash: fresh }).where("id", "=", userId).where("password_hash", "=", verified).execute(),
  );
}

/**
 * Checks credentials for the form and the /api alike. The same message answers an unknown
 * email and a wrong password; account state is told only to someone who knows the password.
 * An account with a second step needs its `code` too (SecondStepRequired without one). Every
 * evaluated attempt, failed or not, goes into the audit trail with its client.
 */
export async function signIn(db: DB, input: LoginInput & { client: string; via?: "form" | "api" }): Promise<PublicUser> {
  const who = { email: input.email, client: input.client };
  const attempt = await takeSignInAttempt(db, who);
  if (!attempt.ok) {
    logLine({ event: "sign-in-limited", client: input.client });
    const account = await getUserRowByEmail(db, input.email);
    await recordAuditAlone(db, {
      action: "sign_in.throttled",
      actor: { id: null, client: input.client },
      subject: account ? { type: "user", id: account.id } : undefined,
      detail: "password attempts",
    });
    throw tooMany(TOO_MANY_ATTEMPTS, attempt.retryAfterSeconds);
  }

  const row = await getUserRowByEmail(db, input.email);
  const ok = await verifyPassword(input.password, row?.password_hash ?? (await decoyHash()));
  const failed = (detail: string, userId: string | null = row?.id ?? null) =>
    recordAuditAlone(db, {
      action: "sign_in.failed",
      actor: { id: null, client: input.client },
      subject: userId ? { type: "user", id: userId } : undefined,
      detail,
    });
  if (!row || !ok) {
    logLine({ event: "sign-in-failed", client: input.client, known_email: Boolean(row) });
    await failed(row ? "wrong password" : "unknown email");
    throw new DomainError(401, INVALID_CREDENTIALS);
  }
  await recordSignInSuccess(db, who, attempt.taken);
  if (needsRehash(row.password_hash)) await rehashPassword(db, row.id, row.password_hash, input.password);
  const refusal =
    row.approval_status === "pending"
      ? AWAITING_APPROVAL
      : row.approval_status === "rejected"
        ? ACCOUNT_REJECTED
        : row.is_active !== 1
          ? ACCOUNT_INACTIVE
          : null;
  if (refusal) {
    await failed(refusal);
    throw new DomainError(403, refusal);
  }
  const provider = providerSettings();
  // administrators may require staff to use the identity provider; the break-glass administrator (admin:create) keeps a password
  if (provider && (row.role === "admin" || row.role === "trainer") && row.break_glass !== 1 && (await signInSettings(db)).require_sso_for_staff) {
    await failed("password refused: staff sign in with single sign-on");
    throw new DomainError(403, SSO_REQUIRED(provider.name));
  }
  if (await hasTwoStep(db, row.id)) {
    if (!input.code) throw new SecondStepRequired(row.id);
    return completeSignIn(db, { userId: row.id, code: input.code, client: input.client });
  }
  if (input.via === "api" && (await needsTwoStepSetUp(db, row))) {
    await failed("two-step sign-in not set up");
    throw new SecondStepSetUpRequired();
  }
  return finishSignIn(db, row.id, input.client, "password");
}

/**
 * The second step of a sign-in whose password was right: a code from the authenticator or a
 * recovery code. A wrong one is recorded as a failed sign-in.
 */
export async function completeSignIn(db: DB, input: { userId: string; code: string; client: string }): Promise<PublicUser> {
  const kind = await checkSignInCode(db, input);
  return finishSignIn(db, input.userId, input.client, `password and ${kind}`);
}

async function checkSignInCode(db: DB, input: { userId: string; code: string; client: string }) {
  try {
    return await checkSecondStep(db, { userId: input.userId, code: input.code });
  } catch (error) {
    if (isDomainError(error) && error.status === 401) {
      await recordAuditAlone(db, {
        action: "sign_in.failed",
        actor: { id: null, client: input.client },
        subject: { type: "user", id: input.userId },
        detail: "wrong second-step code",
      });
    }
    if (isDomainError(error) && error.status === 429) {
      await recordAuditAlone(db, {
        action: "sign_in.throttled",
        actor: { id: null, client: input.client },
        subject: { type: "user", id: input.userId },
        detail: "second-step codes",
      });
    }
    throw error;
  }
}

/**
 * The second-step page's sign-in: a right code completes the sign-in its step was made for,
 * once. The step is used up in the same transaction that records the sign-in and starts the
 * session, so of two requests carrying one step (a replayed cookie) at most one signs in; the
 * other is told the sign-in was already completed. Returns the session's Set-Cookie.
 */
export async function completeSecondStep(
  db: DB,
  input: { step: PendingStep; code: string; client: string; now?: Date },
): Promise<{ user: PublicUser; session: string }> {
  const { step } = input;
  const kind = await checkSignInCode(db, { userId: step.userId, code: input.code, client: input.client });
  const now = input.now ?? new Date();
  return writeTransaction(db, async (trx) => {
    const used = await trx
      .updateTable("sign_in_steps")
      .set({ used_at: now.toISOString() })
      .where("id", "=", step.stepId)
      .where("user_id", "=", step.userId)
      .where("used_at", "is", null)
      .where("expires_at", ">", now.toISOString())
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new DomainError(409, STEP_USED);
    const user = await finishSignIn(trx, step.userId, input.client, `${step.firstStep ?? "password"} and ${kind}`);
    return { user, session: await createSession(trx, step.userId, now) };
  });
}

async function finishSignIn(db: DB, userId: string, client: string, method: string): Promise<PublicUser> {
  await recordLogin(db, userId);
  await recordAuditAlone(db, { action: "sign_in.succeeded", actor: { id: userId, client }, subject: { type: "user", id: userId }, detail: method });
  return (await getUserById(db, userId))!;
}

/** The end of a session, for the audit trail (the session itself is ended by destroySession). */
export function recordSignOut(db: DB, input: { userId: string; client: string }): Promise<void> {
  return recordAuditAlone(db, { action: "sign_out", actor: { id: input.userId, client: input.client }, subject: { type: "user", id: input.userId } });
}
