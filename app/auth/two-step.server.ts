import crypto from "node:crypto";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { writeTransaction, type DB } from "#db/connection";
import type { Role } from "#db/schema";
import { env } from "~/env.server";
import { demoMode } from "~/http/demo-lock.server";
import { recordAudit, type AuditActor } from "~/models/audit.server";
import { conflict, DomainError, notFound } from "~/utils/errors";
import { REQUIRED_FOR_ADMINS, SET_UP_REQUIRED } from "~/schemas/two-step-text";
import { sha256 } from "~/security/password.server";
import { openSecret, sealSecret } from "./secret-box.server";

export { REQUIRED_FOR_ADMINS, SET_UP_REQUIRED };
import { giveBackRateLimit, RATE_LIMITS, requireRateLimit, type Taken } from "~/security/rate-limits.server";
import { revokeAllAccess, type InsideChange } from "~/models/user.server";

/**
 * Two-step sign-in (docs/decisions/010-staff-sign-in-and-audit.md): a TOTP authenticator (RFC 6238: SHA-1, 6 digits,
 * 30-second steps, as every authenticator app reads from a QR code) and ten single-use recovery
 * codes. Required of administrators except while the portal runs the demo organisation;
 * offered to everyone.
 */

const PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;

export const CODE_REQUIRED = "Enter the 6-digit code from your authenticator app, or a recovery code";
export const WRONG_CODE = "That code is not right. Check your authenticator app and try again.";
export const TOO_MANY_CODES = `Too many wrong codes. Please wait ${RATE_LIMITS.secondStep.windowMinutes} minutes and try again.`;
export const ALREADY_SET_UP = "Two-step sign-in is already set up";
export const NOT_STARTED = "Start the set-up first";

function totp(secret: string, label = "") {
  return new TOTP({ issuer: env().RTO_NAME, label, secret: Secret.fromBase32(secret), period: PERIOD_SECONDS, digits: 6, algorithm: "SHA1" });
}

/** The current code of a secret (tests and the browser journey compute it as an authenticator would). */
export function currentCode(secret: string, at = Date.now()): string {
  return totp(secret).generate({ timestamp: at });
}

/** Whether the user signs in with a second step. */
export async function hasTwoStep(db: DB, userId: string): Promise<boolean> {
  const row = await db.selectFrom("two_step").select("confirmed_at").where("user_id", "=", userId).executeTakeFirst();
  return Boolean(row?.confirmed_at);
}

/** Whether this user must set the second step up before anything else: an administrator, outside the demo. */
export async function needsTwoStepSetUp(db: DB, user: { id: string; role: Role }): Promise<boolean> {
  if (user.role !== "admin" || demoMode()) return false;
  return !(await hasTwoStep(db, user.id));
}

export interface TwoStepSetUp {
  enabled: boolean;
  /**
   * while set-up is under way (a first authenticator, or a new one replacing the one in use):
   * the secret as text, its otpauth URI and QR code (an SVG data URL)
   */
  pending: { secret: string; uri: string; qr: string } | null;
  recoveryCodesLeft: number;
}

async function pendingView(secret: string, email: string): Promise<NonNullable<TwoStepSetUp["pending"]>> {
  const uri = totp(secret, email).toString();
  const svg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/** What the security page shows. */
export async function twoStepSetUp(db: DB, user: { id: string; email: string }): Promise<TwoStepSetUp> {
  const row = await db.selectFrom("two_step").select(["secret", "confirmed_at", "pending_secret"]).where("user_id", "=", user.id).executeTakeFirst();
  if (row?.confirmed_at) {
    const left = await db
      .selectFrom("recovery_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", user.id)
      .where("used_at", "is", null)
      .executeTakeFirstOrThrow();
    const pending = row.pending_secret ? await pendingView(openSecret(row.pending_secret, user.id), user.email) : null;
    return { enabled: true, pending, recoveryCodesLeft: Number(left.n) };
  }
  if (!row) return { enabled: false, pending: null, recoveryCodesLeft: 0 };
  return { enabled: false, pending: await pendingView(openSecret(row.secret, user.id), user.email), recoveryCodesLeft: 0 };
}

/**
 * Starts (or starts again) setting up an authenticator: a new secret, stored encrypted and not
 * in use until a code confirms it. With `again` (the caller has proved the owner is at the
 * keyboard: app/auth/factor-change.server.ts) an account whose second step is on sets up a
 * new one, and the one in use keeps working until then.
 */
export async function beginTwoStep(db: DB, userId: string, options: { again?: boolean; now?: Date } = {}): Promise<void> {
  const now = options.now ?? new Date();
  const secret = sealSecret(new Secret({ size: 20 }).base32, userId);
  await writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom("two_step").select("confirmed_at").where("user_id", "=", userId).executeTakeFirst();
    if (row?.confirmed_at) {
      if (!options.again) throw conflict(ALREADY_SET_UP);
      await trx.updateTable("two_step").set({ pending_secret: secret }).where("user_id", "=", userId).execute();
    } else if (row) await trx.updateTable("two_step").set({ secret, created_at: now.toISOString() }).where("user_id", "=", userId).execute();
    else await trx.insertInto("two_step").values({ user_id: userId, secret, created_at: now.toISOString(), confirmed_at: null, last_step: null }).execute();
  });
}

/** The step a code belongs to, if it is the previous, current or next one of the secret. */
function stepOf(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    period: PERIOD_SECONDS,
    digits: 6,
    algorithm: "SHA1",
    timestamp: now.getTime(),
    window: 1,
  });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

function newRecoveryCode(): string {
  const raw = crypto.randomBytes(8).toString("hex");
  return `${raw.slice(0, 8)}-${raw.slice(8)}`;
}

/** What a typed code becomes before comparing: spaces and dashes dropped, lower case. */
const normalise = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

/**
 * Confirms set-up with a code from the new authenticator: it is the second step from now on
 * (replacing the one in use, when set up again), and ten new recovery codes are returned, the
 * only time they are ever seen (only their hashes are kept). Wrong codes count against the
 * account's limit as at sign-in. `inside` runs in the same transaction.
 */
export async function confirmTwoStep(db: DB, input: { userId: string; code: string; actor: AuditActor; now?: Date; inside?: InsideChange }): Promise<string[]> {
  const now = input.now ?? new Date();
  const attempt = await takeCodeAttempt(db, input.userId, now);
  return writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom("two_step").select(["secret", "confirmed_at", "pending_secret"]).where("user_id", "=", input.userId).executeTakeFirst();
    if (!row) throw new DomainError(409, NOT_STARTED);
    const again = row.confirmed_at !== null;
    const candidate = again ? row.pending_secret : row.secret;
    if (candidate === null) throw conflict(ALREADY_SET_UP);
    const step = stepOf(openSecret(candidate, input.userId), input.code.trim(), now);
    if (step === null) throw new DomainError(422, WRONG_CODE, { code: WRONG_CODE }, "code");
    await giveBackRateLimit(trx, attempt);
    await trx
      .updateTable("two_step")
      .set({ secret: candidate, pending_secret: null, confirmed_at: now.toISOString(), last_step: step })
      .where("user_id", "=", input.userId)
      .execute();
    await trx.deleteFrom("recovery_codes").where("user_id", "=", input.userId).execute();
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await trx
      .insertInto("recovery_codes")
      .values(codes.map((code) => ({ user_id: input.userId, code_hash: sha256(normalise(code)), used_at: null })))
      .execute();
    await recordAudit(trx, {
      action: again ? "two_step.set_up_again" : "two_step.set_up",
      actor: input.actor,
      subject: { type: "user", id: input.userId },
      now,
    });
    await input.inside?.(trx);
    return codes;
  });
}

/** Counts a code against the account's rate limit before checking it; a right code gives it back. */
function takeCodeAttempt(db: DB, userId: string, now: Date): Promise<Taken> {
  return requireRateLimit(db, [RATE_LIMITS.secondStep], { userId }, TOO_MANY_CODES, now);
}

/**
 * Checks a sign-in's second step: a TOTP code of the previous, current or next step that is
 * newer than the last one accepted (a code works once), or an unused recovery code (spent
 * now). At most RATE_LIMITS.secondStep wrong codes per account per window; a right code gives
 * its count back. Says which kind of code it was.
 */
export async function checkSecondStep(db: DB, input: { userId: string; code: string; now?: Date }): Promise<"authenticator" | "recovery code"> {
  const now = input.now ?? new Date();
  const code = input.code.trim();
  const attempt = await takeCodeAttempt(db, input.userId, now);
  const kind = await writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom("two_step").select(["secret", "last_step", "confirmed_at"]).where("user_id", "=", input.userId).executeTakeFirst();
    if (!row?.confirmed_at) return null;
    const step = stepOf(openSecret(row.secret, input.userId), code, now);
    if (step !== null) {
      const used = await trx
        .updateTable("two_step")
        .set({ last_step: step })
        .where("user_id", "=", input.userId)
        .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
        .executeTakeFirst();
      return Number(used.numUpdatedRows) === 1 ? ("authenticator" as const) : null;
    }
    if (code.length > 40) return null;
    const spent = await trx
      .updateTable("recovery_codes")
      .set({ used_at: now.toISOString() })
      .where("user_id", "=", input.userId)
      .where("code_hash", "=", sha256(normalise(code)))
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(spent.numUpdatedRows) === 1 ? ("recovery code" as const) : null;
  });
  if (!kind) throw new DomainError(401, WRONG_CODE, { code: WRONG_CODE }, "code");
  await giveBackRateLimit(db, attempt);
  return kind;
}

/**
 * Removes a user's second step: an administrator resetting a staff member's (a lost phone), or
 * someone turning their own off (never an administrator outside the demo: it is required of
 * them; the owner's proof is asked for by app/auth/factor-change.server.ts). Their sessions
 * and tokens end when another resets it, so the next sign-in sets it up. `inside` runs in the
 * same transaction when there was a second step to remove.
 */
export async function resetTwoStep(db: DB, input: { userId: string; actor: AuditActor & { role: Role }; now?: Date; inside?: InsideChange }): Promise<void> {
  const now = input.now ?? new Date();
  await writeTransaction(db, async (trx) => {
    const user = await trx.selectFrom("users").select(["id", "role"]).where("id", "=", input.userId).executeTakeFirst();
    if (!user) throw notFound("User");
    const self = input.actor.id === user.id;
    if (!self && (input.actor.role !== "admin" || user.role === "student")) throw notFound("Staff account");
    if (self && user.role === "admin" && !demoMode()) throw new DomainError(409, REQUIRED_FOR_ADMINS);
    const removed = await trx.deleteFrom("two_step").where("user_id", "=", user.id).executeTakeFirst();
    await trx.deleteFrom("recovery_codes").where("user_id", "=", user.id).execute();
    if (Number(removed.numDeletedRows) === 0) return;
    if (!self) await revokeAllAccess(trx, user.id);
    await recordAudit(trx, { action: self ? "two_step.turned_off" : "two_step.reset", actor: input.actor, subject: { type: "user", id: user.id }, now });
    await input.inside?.(trx);
  });
}
