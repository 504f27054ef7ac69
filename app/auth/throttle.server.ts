import type { DB } from "#db/connection";

export const THROTTLE_WINDOW_MINUTES = 15;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_CLIENT = 20;

/**
 * Whether this email or client has failed too often in the window. Checked before any
 * password is hashed, so a flood of guesses costs one indexed count, not CPU.
 * A success clears the email's count (not the client's: one good account must not let a
 * client keep guessing others).
 */
export async function isThrottled(db: DB, key: { email: string; client: string }, now = new Date()): Promise<boolean> {
  const since = new Date(now.getTime() - THROTTLE_WINDOW_MINUTES * 60_000).toISOString();
  const lastSuccess = await db
    .selectFrom("sign_in_attempts")
    .select((eb) => eb.fn.max("attempted_at").as("at"))
    .where("email", "=", key.email)
    .where("succeeded", "=", 1)
    .where("attempted_at", ">", since)
    .executeTakeFirst();
  const emailSince = lastSuccess?.at && lastSuccess.at > since ? lastSuccess.at : since;
  const byEmail = await db
    .selectFrom("sign_in_attempts")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("email", "=", key.email)
    .where("succeeded", "=", 0)
    .where("attempted_at", ">", emailSince)
    .executeTakeFirstOrThrow();
  if (Number(byEmail.n) >= MAX_FAILURES_PER_EMAIL) return true;
  const byClient = await db
    .selectFrom("sign_in_attempts")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("client", "=", key.client)
    .where("succeeded", "=", 0)
    .where("attempted_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(byClient.n) >= MAX_FAILURES_PER_CLIENT;
}

export async function recordAttempt(
  db: DB,
  attempt: { email: string; client: string; succeeded: boolean },
  now = new Date(),
): Promise<void> {
  await db
    .insertInto("sign_in_attempts")
    .values({
      email: attempt.email.slice(0, 254),
      client: attempt.client,
      succeeded: attempt.succeeded ? 1 : 0,
      attempted_at: now.toISOString(),
    })
    .execute();
}
