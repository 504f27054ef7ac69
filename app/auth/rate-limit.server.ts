import { sql } from "kysely";
import { writeTransaction, type DB } from "#db/connection";

/**
 * A fixed-window rate limit per client, counted in the database so it holds across workers and
 * servers. Each call counts one request and says whether it is within the limit; a client over
 * it is refused until the window ends (429 with Retry-After).
 */
export interface RateLimit {
  scope: string;
  limit: number;
  windowSeconds: number;
}

/** Public certificate verification: plenty for an employer checking a few documents, too few to enumerate codes. */
export const VERIFY_RATE_LIMIT: RateLimit = { scope: "verify", limit: 30, windowSeconds: 600 };

export async function takeRequest(
  db: DB,
  rule: RateLimit,
  client: string,
  now = new Date(),
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const windowMs = rule.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  const windowStart = new Date(start).toISOString();
  const key = client.slice(0, 100);
  const n = await writeTransaction(db, async (trx) => {
    const row = await trx
      .insertInto("request_counts")
      .values({ scope: rule.scope, client: key, window_start: windowStart, n: 1 })
      .onConflict((oc) =>
        oc.columns(["scope", "client"]).doUpdateSet({
          // a new window starts the count again
          n: sql`case when request_counts.window_start = ${windowStart} then request_counts.n + 1 else 1 end`,
          window_start: windowStart,
        }),
      )
      .returning("n")
      .executeTakeFirstOrThrow();
    return row.n;
  });
  return { allowed: n <= rule.limit, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now.getTime()) / 1000)) };
}

/**
 * Gives back a request counted by takeRequest in the same window, for limits that count only
 * failures: each attempt is counted before it is checked (so parallel attempts cannot all slip
 * under the limit) and a success returns its count.
 */
export async function returnRequest(db: DB, rule: RateLimit, client: string, now = new Date()): Promise<void> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs).toISOString();
  await db
    .updateTable("request_counts")
    .set({ n: sql`n - 1` })
    .where("scope", "=", rule.scope)
    .where("client", "=", client.slice(0, 100))
    .where("window_start", "=", windowStart)
    .where("n", ">", 0)
    .execute();
}

/** Wrong second-step codes per account (keyed by user id): CONTRACT section 13's 5 per 15 minutes. */
export const SECOND_STEP_RATE_LIMIT: RateLimit = { scope: "second-step", limit: 5, windowSeconds: 15 * 60 };
