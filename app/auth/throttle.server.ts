import { writeTransaction, type DB } from "#db/connection";
import { tooMany } from "~/utils/errors";

export const THROTTLE_WINDOW_MINUTES = 15;
/** Wrong passwords evaluated per account (from clients it does not know) per window. */
export const MAX_FAILURES_PER_EMAIL = 5;
/** Wrong passwords evaluated per client, over every account it tries, per window. */
export const MAX_FAILURES_PER_CLIENT = 20;
/** How long a client that signed in to an account stays known to it. */
export const KNOWN_CLIENT_DAYS = 90;

const minutesBefore = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

/** Whether `client` signed in to the account of `email` within KNOWN_CLIENT_DAYS. */
export async function isKnownClient(db: DB, key: { email: string; client: string }, now = new Date()): Promise<boolean> {
  const row = await db
    .selectFrom("sign_in_attempts")
    .select("id")
    .where("email", "=", key.email.slice(0, 254))
    .where("client", "=", key.client.slice(0, 100))
    .where("succeeded", "=", 1)
    .where("attempted_at", ">", minutesBefore(now, KNOWN_CLIENT_DAYS * 24 * 60))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Reserves one password check, or refuses it (null). The check and its record happen in one
 * immediate transaction, before any hashing: the attempt is written as a failure up front and
 * turned into a success only if the password proves right, so however many guesses arrive at
 * once, no more than the limit are ever evaluated.
 *
 * The limits:
 * - an account takes MAX_FAILURES_PER_EMAIL failures per window from clients it does not know;
 * - a client that signed in to the account before (within KNOWN_CLIENT_DAYS) has a budget of
 *   its own for that account, so an attacker elsewhere cannot lock the owner out;
 * - a client takes MAX_FAILURES_PER_CLIENT failures per window, whatever the accounts.
 * A success clears the account's count (not the client's: one good account must not let a
 * client keep guessing others).
 */
export async function beginSignInAttempt(db: DB, key: { email: string; client: string }, now = new Date()): Promise<number | null> {
  const email = key.email.slice(0, 254);
  const client = key.client.slice(0, 100);
  const since = minutesBefore(now, THROTTLE_WINDOW_MINUTES);
  return writeTransaction(db, async (trx) => {
    const known = await isKnownClient(trx, { email, client }, now);
    const lastSuccess = await trx
      .selectFrom("sign_in_attempts")
      .select((eb) => eb.fn.max("attempted_at").as("at"))
      .where("email", "=", email)
      .where("succeeded", "=", 1)
      .where("attempted_at", ">", since)
      .executeTakeFirst();
    const emailSince = lastSuccess?.at && lastSuccess.at > since ? lastSuccess.at : since;
    let byAccount = trx
      .selectFrom("sign_in_attempts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("email", "=", email)
      .where("succeeded", "=", 0)
      .where("attempted_at", ">", emailSince);
    if (known) byAccount = byAccount.where("client", "=", client);
    if (Number((await byAccount.executeTakeFirstOrThrow()).n) >= MAX_FAILURES_PER_EMAIL) return null;
    const byClient = await trx
      .selectFrom("sign_in_attempts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("client", "=", client)
      .where("succeeded", "=", 0)
      .where("attempted_at", ">", since)
      .executeTakeFirstOrThrow();
    if (Number(byClient.n) >= MAX_FAILURES_PER_CLIENT) return null;
    const row = await trx
      .insertInto("sign_in_attempts")
      .values({ email, client, succeeded: 0, attempted_at: now.toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/** The reserved attempt's password was right. */
export async function recordSignInSuccess(db: DB, attemptId: number): Promise<void> {
  await db.updateTable("sign_in_attempts").set({ succeeded: 1 }).where("id", "=", attemptId).execute();
}

/**
 * One more request of a kind (registration, password reset) from a client, or false when the
 * client has made `max` in the last `windowMinutes`. Counted and recorded in one immediate
 * transaction, so parallel requests cannot all slip under the limit.
 */
export async function takeClientAllowance(
  db: DB,
  input: { action: string; client: string; max: number; windowMinutes: number; now?: Date },
): Promise<boolean> {
  const now = input.now ?? new Date();
  const since = minutesBefore(now, input.windowMinutes);
  const client = input.client.slice(0, 100);
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("client_requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("action", "=", input.action)
      .where("client", "=", client)
      .where("requested_at", ">", since)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= input.max) return false;
    // Rows older than the window no longer count for anything.
    await trx.deleteFrom("client_requests").where("action", "=", input.action).where("requested_at", "<=", since).execute();
    await trx.insertInto("client_requests").values({ action: input.action, client, requested_at: now.toISOString() }).execute();
    return true;
  });
}

export const REGISTRATION_WINDOW_MINUTES = 60;
export const MAX_REGISTRATIONS_PER_CLIENT = 10;
export const TOO_MANY_REGISTRATIONS = `Too many accounts have been created from your network. Please wait ${REGISTRATION_WINDOW_MINUTES} minutes and try again.`;

/** Counts a self-registration against its client; throws 429 past the limit. */
export async function allowRegistration(db: DB, client: string, now = new Date()): Promise<void> {
  const allowed = await takeClientAllowance(db, {
    action: "register",
    client,
    max: MAX_REGISTRATIONS_PER_CLIENT,
    windowMinutes: REGISTRATION_WINDOW_MINUTES,
    now,
  });
  if (!allowed) throw tooMany(TOO_MANY_REGISTRATIONS, REGISTRATION_WINDOW_MINUTES * 60);
}
