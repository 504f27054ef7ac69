import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import type { Role } from "#db/schema";
import { hashPassword, randomToken, sha256 } from "~/security/password.server";
import { assertAcceptablePassword } from "~/security/password-policy.server";
import { revokeAllAccess } from "./user.server";
import { recordAudit } from "./audit.server";
import { isKnownClient, RATE_LIMITS, takeRateLimit } from "~/security/rate-limits.server";
import { recordEvent } from "./event.server";
import { queueMail } from "./outbox.server";

/**
 * Password reset by emailed link. A token is 192 random bits (32 characters, so the whole link
 * fits on one line of a plain-text email); only its sha-256 is stored, so a database leak
 * yields no usable link. A token works once, for an hour; asking again does not void the
 * links already sent (the request may be someone else's), and using any one ends them all.
 * Requests are counted whether or not the email has an account, and the caller answers every
 * request with the same words.
 *
 * The rate limits (RATE_LIMITS.reset*): per client whatever the emails, per email from
 * one client, and a cap on the mails strangers can ask for to one email between them; a client
 * that signed in to the account before (KNOWN_CLIENT) is not a stranger, so strangers can
 * neither flood the mailbox nor use up the owner's requests.
 */

export const RESET_TOKEN_TTL_MINUTES = 60;
export const TOO_MANY_RESET_REQUESTS = `Too many password reset requests. Please wait ${RATE_LIMITS.resetClient.windowMinutes} minutes and try again.`;

export type ResetRequestOutcome =
  /** `mailId`: the outbox message carrying the link, or null when no link could be made */
  | { kind: "issued"; token: string; expiresAt: string; user: { id: string; email: string; full_name: string }; mailId: string | null }
  | { kind: "no-account" }
  | { kind: "limited"; by: "email" | "client"; retryAfterSeconds: number };

/**
 * Records a reset request and, for an active account and within the limits, issues a new
 * token and queues its mail in the same transaction, with the link `link` makes of the token
 * (none without `link`, or when it returns null: no address may safely be named). The outcome is for the caller
 * to act on (deliver the mail now, log why none was queued), never to show.
 */
export async function requestPasswordReset(
  db: DB,
  input: { email: string; client: string; link?: (token: string) => string | null; now?: Date },
): Promise<ResetRequestOutcome> {
  const now = input.now ?? new Date();
  const nowIso = now.toISOString();
  const email = input.email.trim().toLowerCase().slice(0, 254);
  const who = { email, client: input.client };
  const token = randomToken(24);

  return writeTransaction(db, async (trx): Promise<ResetRequestOutcome> => {
    const known = await isKnownClient(trx, who, now);
    const rules = [RATE_LIMITS.resetClient, RATE_LIMITS.resetEmail, ...(known ? [] : [RATE_LIMITS.resetStrangers])];
    const decision = await takeRateLimit(trx, rules, who, now);
    if (!decision.ok) {
      return { kind: "limited", by: decision.rule === RATE_LIMITS.resetClient ? "client" : "email", retryAfterSeconds: decision.retryAfterSeconds };
    }

    const user = await trx
      .selectFrom("users")
      .select(["id", "email", "full_name"])
      .where("email", "=", email)
      .where("is_active", "=", 1)
      .where("approval_status", "=", "approved")
      .executeTakeFirst();
    if (!user) return { kind: "no-account" };

    // Links already sent stay valid: this request may be a stranger's, and the owner may be
    // about to click the one they asked for. Expired ones go.
    await trx.deleteFrom("password_reset_tokens").where("user_id", "=", user.id).where("expires_at", "<=", nowIso).execute();
    const expiresAt = new Date(now.getTime() + RESET_TOKEN_TTL_MINUTES * 60_000).toISOString();
    const tokenId = crypto.randomUUID();
    await trx
      .insertInto("password_reset_tokens")
      .values({ id: tokenId, user_id: user.id, token_hash: sha256(token), created_at: nowIso, expires_at: expiresAt, used_at: null })
      .execute();
    const link = input.link?.(token) ?? null;
    const mailId = link
      ? await queueMail(trx, {
          key: `password-reset:${tokenId}`,
          template: "password-reset",
          recipientId: user.id,
          data: { link, validMinutes: RESET_TOKEN_TTL_MINUTES, expiresAt },
          now,
        })
      : null;
    await recordEvent(trx, {
      actorId: null,
      subjectUserId: user.id,
      type: "password.reset_requested",
      entityType: "user",
      entityId: user.id,
      message: "A password reset link was requested for your account",
      now: nowIso,
    });
    return { kind: "issued", token, expiresAt, user, mailId };
  });
}

export type ResetTokenProblem = "unknown" | "expired" | "used";
export type ResetTokenState = { ok: true; userId: string; email: string; role: Role } | { ok: false; reason: ResetTokenProblem };

/** What a token from a link is worth, without using it up. */
export async function inspectResetToken(db: DB, token: string, now = new Date()): Promise<ResetTokenState> {
  if (typeof token !== "string" || token.length < 16 || token.length > 200) return { ok: false, reason: "unknown" };
  const row = await db
    .selectFrom("password_reset_tokens")
    .innerJoin("users", "users.id", "password_reset_tokens.user_id")
    .select([
      "password_reset_tokens.user_id",
      "password_reset_tokens.expires_at",
      "password_reset_tokens.used_at",
      "users.email",
      "users.role",
      "users.is_active",
      "users.approval_status",
    ])
    .where("password_reset_tokens.token_hash", "=", sha256(token))
    .executeTakeFirst();
  if (!row || row.is_active !== 1 || row.approval_status !== "approved") return { ok: false, reason: "unknown" };
  if (row.used_at) return { ok: false, reason: "used" };
  if (row.expires_at <= now.toISOString()) return { ok: false, reason: "expired" };
  return { ok: true, userId: row.user_id, email: row.email, role: row.role };
}

/**
 * Sets a new password with a token: the token is spent, every other link of the user stops
 * working, and every session and API token of the user ends. Two submissions of one link
 * change the password once; the second is told the link was used.
 */
export async function resetPassword(db: DB, input: { token: string; password: string; client?: string | null; now?: Date }): Promise<ResetTokenState> {
  const now = input.now ?? new Date();
  const checked = await inspectResetToken(db, input.token, now);
  if (!checked.ok) return checked;
  await assertAcceptablePassword(input.password, checked.role);
  const passwordHash = await hashPassword(input.password);
  const nowIso = now.toISOString();
  return writeTransaction(db, async (trx) => {
    const spent = await trx
      .updateTable("password_reset_tokens")
      .set({ used_at: nowIso })
      .where("token_hash", "=", sha256(input.token))
      .where("user_id", "=", checked.userId)
      .where("used_at", "is", null)
      .where("expires_at", ">", nowIso)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return inspectResetToken(trx, input.token, now);
    await trx.updateTable("users").set({ password_hash: passwordHash, updated_at: nowIso }).where("id", "=", checked.userId).execute();
    await trx.deleteFrom("password_reset_tokens").where("user_id", "=", checked.userId).where("used_at", "is", null).execute();
    await revokeAllAccess(trx, checked.userId);
    await recordAudit(trx, {
      action: "password.reset",
      actor: { id: checked.userId, client: input.client },
      subject: { type: "user", id: checked.userId },
      now: nowIso,
    });
    await recordEvent(trx, {
      actorId: checked.userId,
      subjectUserId: checked.userId,
      type: "password.reset",
      entityType: "user",
      entityId: checked.userId,
      message: "Your password was changed with an emailed reset link; every session was signed out",
      now: nowIso,
    });
    return checked;
  });
}
