import crypto from "node:crypto";
import { writeLater, type DB, type WriteTransaction } from "#db/connection";
import { isUniqueViolation } from "#db/dialect";
import { FORM_ALREADY_SENT, IDEMPOTENCY_KEY_USED, SPENT_TOKEN_KEEP_DAYS } from "~/utils/form-token";
import { conflict, type DomainError } from "~/utils/errors";

/**
 * One-time tokens (docs/decisions/048-a-repeated-post-stores-once.md): a change that must be
 * stored once (a payment, a credit note, a group booking) spends the token its post carried, in
 * its own write transaction. A second post with the same token, sent again or at the same
 * moment, is refused with a 409 and stores nothing. A post without a token (the demo's seed, an
 * /api call without the header, a change made inside another one) is stored as before.
 */

/** What a token was spent on. */
export type TokenPurpose = "payment" | "credit_note" | "booking";

/** A change's token: a page's hidden form token, or an /api call's Idempotency-Key. */
export interface OnceToken {
  token: string;
  from: "form" | "idempotency-key";
}

/** A page form's token, as its action passes it on. */
export const formOnce = (token: string): OnceToken => ({ token, from: "form" });

/** A fresh token for a page's form (its loader writes it into a hidden field). */
export function newFormToken(): string {
  return crypto.randomUUID();
}

/** The refusal of a repeat, in the words of where the token came from. */
function repeated(once: OnceToken): DomainError {
  return conflict(once.from === "form" ? FORM_ALREADY_SENT : IDEMPOTENCY_KEY_USED(once.token));
}

/** Who spends a token: a signed-in user; a change with a token and no user is a bug. */
interface Spend {
  userId: string | null;
  purpose: TokenPurpose;
  now: Date;
}

function spender(userId: string | null): string {
  if (!userId) throw new Error("A one-time token is spent by a signed-in user");
  return userId;
}

async function isSpent(db: DB, userId: string, token: string): Promise<boolean> {
  const row = await db.selectFrom("spent_tokens").select("token").where("user_id", "=", userId).where("token", "=", token).executeTakeFirst();
  return row !== undefined;
}

/**
 * Refuses a token this user spent already. Read inside the change's write, after any write that
 * spent it committed (writes take turns; a booking's turns are its employer's), so a repeat is
 * told so before any other check of the change could answer it otherwise (a class now full).
 */
export async function refuseSpentToken(trx: WriteTransaction, once: OnceToken | undefined, userId: string | null): Promise<void> {
  if (once && (await isSpent(trx, spender(userId), once.token))) throw repeated(once);
}

/**
 * Records the token with the change, in its transaction: its primary key (user, token) is what
 * lets only one of two posts commit, whatever each read before.
 */
export async function recordSpentToken(trx: WriteTransaction, once: OnceToken | undefined, spend: Spend): Promise<void> {
  if (!once) return;
  await writeLater(
    trx,
    trx.insertInto("spent_tokens").values({ user_id: spender(spend.userId), token: once.token, purpose: spend.purpose, used_at: spend.now.toISOString() }),
  );
}

/** refuseSpentToken then recordSpentToken: for a write that takes its turn from the start. */
export async function spendToken(trx: WriteTransaction, once: OnceToken | undefined, spend: Spend): Promise<void> {
  await refuseSpentToken(trx, once, spend.userId);
  await recordSpentToken(trx, once, spend);
}

/**
 * Runs the write transaction that spends `once`. Its unique-key failure, when the token is now
 * spent, was a post of the same token that committed first: that is the refusal, not a fault.
 */
export async function storedOnce<T>(db: DB, once: OnceToken | undefined, userId: string | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (once && isUniqueViolation(error) && (await isSpent(db, spender(userId), once.token))) throw repeated(once);
    throw error;
  }
}

/** Removes the tokens kept longer than SPENT_TOKEN_KEEP_DAYS (the background runner's retention). */
export async function removeExpiredTokens(db: DB, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - SPENT_TOKEN_KEEP_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const result = await db.deleteFrom("spent_tokens").where("used_at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
