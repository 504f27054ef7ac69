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
