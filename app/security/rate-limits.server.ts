import { writeTransaction, type DB } from "#db/connection";
import { tooMany } from "~/utils/errors";

/**
 * Rate limits: how many requests of one kind a key (a client, an account, a user) may make
 * in a sliding window. Every limit of the portal is a rule below, counted in one table
 * (`request_limits`, one row per counted request) by one algorithm, so they hold across every
 * worker and server sharing the database:
 *
 * - the count and the record happen in one write transaction (writers take turns on both
 *   dialects), so N simultaneous requests against a limit K give exactly K accepted;
 * - a refused request writes nothing: it only reads, so a client already over its limit costs
 *   no write (and no emptied page cache) however often it asks;
 * - a limit that counts failures only takes each attempt before checking it (parallel attempts
 *   cannot all slip under the limit) and gives a success's count back (`giveBackRateLimit`).
 */

/** What a rule counts by: the caller names the client, the email and the user; the rule picks. */
export type RateLimitKey = "client" | "email" | "email and client" | "user";

export interface RateLimit {
  /** stored with each counted request */
  name: string;
  key: RateLimitKey;
  limit: number;
  windowMinutes: number;
}

export const RATE_LIMITS = {
  /** Wrong passwords evaluated per account from clients that never signed in to it. */
  signInAccount: { name: "sign-in:account", key: "email", limit: 5, windowMinutes: 15 },
  /**
   * Wrong passwords per account from one client that signed in to it before (KNOWN_CLIENT):
   * a limit of its own, so guesses from elsewhere cannot lock the owner out.
   */
  signInKnownClient: { name: "sign-in:known-client", key: "email and client", limit: 5, windowMinutes: 15 },
  /** Wrong passwords per client over every account it tries. */
  signInClient: { name: "sign-in:client", key: "client", limit: 20, windowMinutes: 15 },
  /** Wrong second-step codes per account (docs/decisions/010-staff-sign-in-and-audit.md). */
  secondStep: { name: "second-step", key: "user", limit: 5, windowMinutes: 15 },
  /** Self-registrations per client: each costs a password hash. */
  registration: { name: "registration", key: "client", limit: 10, windowMinutes: 60 },
  /** Public certificate checks: plenty for an employer checking a few documents, too few to enumerate codes. */
  verification: { name: "verification", key: "client", limit: 30, windowMinutes: 10 },
  /** Password reset requests per client, whatever the emails. */
  resetClient: { name: "reset:client", key: "client", limit: 10, windowMinutes: 60 },
  /** Password reset requests for one email from one client, known to the account or not. */
  resetEmail: { name: "reset:email", key: "email and client", limit: 3, windowMinutes: 60 },
  /** Password reset mails to one email asked for by clients the account does not know, between them. */
  resetStrangers: { name: "reset:strangers", key: "email", limit: 6, windowMinutes: 60 },
  /** Complaints per client, signed in or not: each may mail an acknowledgement. */
  complaintClient: { name: "complaint:client", key: "client", limit: 5, windowMinutes: 60 },
  /** Complaints naming one email for the acknowledgement, from every client between them: an address nobody proved is mailed a few times a day at most. */
  complaintEmail: { name: "complaint:email", key: "email", limit: 3, windowMinutes: 24 * 60 },
  /** Questionnaire answers sent per client (each link answers once; a shared site office sends several). */
  questionnaireClient: { name: "questionnaire:client", key: "client", limit: 20, windowMinutes: 60 },
  /** RPL referees' reports sent per client: each link works once, so a few an hour is plenty for one site office. */
  refereeReportClient: { name: "referee-report:client", key: "client", limit: 10, windowMinutes: 60 },
} as const satisfies Record<string, RateLimit>;

/**
 * A client that signed in to an account is known to it for this long: its failures count
 * against signInKnownClient instead of signInAccount, and its reset requests are not strangers'.
 * Kept in the same table, one row per account and client, refreshed at each sign-in.
 */
export const KNOWN_CLIENT = { name: "known-client", key: "email and client", windowMinutes: 90 * 24 * 60 } as const;

/** Who is asking; each rule takes the part its key names. */
export interface Requester {
  client?: string;
  email?: string;
  userId?: string;
}

/** The stored key of `who` under a rule: the client never holds a space, so "email client" is unambiguous. */
function keyOf(rule: { name: string; key: RateLimitKey }, who: Requester): string {
  const need = (value: string | undefined, what: string, max: number) => {
    if (value === undefined) throw new Error(`rate limit ${rule.name} needs the ${what}`);
    return value.slice(0, max);
  };
  switch (rule.key) {
    case "client":
      return need(who.client, "client", 100);
    case "email":
      return need(who.email, "email", 254);
    case "email and client":
      return `${need(who.email, "email", 254)} ${need(who.client, "client", 100)}`;
    case "user":
      return need(who.userId, "user", 100);
  }
}

const windowStart = (now: Date, windowMinutes: number) => new Date(now.getTime() - windowMinutes * 60_000).toISOString();

/** The requests taken by one accepted call, to give back if the request turns out not to count. */
export interface Taken {
  ids: number[];
}

export type RateLimitDecision = { ok: true; taken: Taken } | { ok: false; rule: RateLimit; retryAfterSeconds: number };

/**
 * Counts one request against each rule, or refuses it under the first rule (in the order
 * given) whose limit is reached, with when asking again can succeed. A refusal writes nothing.
 */
export async function takeRateLimit(db: DB, rules: readonly RateLimit[], who: Requester, now = new Date()): Promise<RateLimitDecision> {
  return writeTransaction(db, async (trx) => {
    for (const rule of rules) {
      const since = windowStart(now, rule.windowMinutes);
      const counted = await trx
        .selectFrom("request_limits")
        .select("at")
        .where("rule", "=", rule.name)
        .where("key", "=", keyOf(rule, who))
        .where("at", ">", since)
        .orderBy("at", "desc")
        .limit(rule.limit)
        .execute();
      if (counted.length >= rule.limit) {
        // The request would be accepted once the oldest of the newest `limit` leaves the window.
        const frees = new Date(counted[counted.length - 1]!.at).getTime() + rule.windowMinutes * 60_000;
        return { ok: false as const, rule, retryAfterSeconds: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)) };
      }
    }
    const ids: number[] = [];
    for (const rule of rules) {
      // Requests older than the window no longer count for anything.
      await trx.deleteFrom("request_limits").where("rule", "=", rule.name).where("at", "<=", windowStart(now, rule.windowMinutes)).execute();
      const row = await trx
        .insertInto("request_limits")
        .values({ rule: rule.name, key: keyOf(rule, who), at: now.toISOString() })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return { ok: true as const, taken: { ids } };
  });
}

/** takeRateLimit for a caller that answers a refusal with 429, `message` and Retry-After. */
export async function requireRateLimit(db: DB, rules: readonly RateLimit[], who: Requester, message: string, now = new Date()): Promise<Taken> {
  const decision = await takeRateLimit(db, rules, who, now);
  if (!decision.ok) throw tooMany(message, decision.retryAfterSeconds);
  return decision.taken;
}

/** Gives back requests taken by takeRateLimit that turned out not to count (a right password or code). */
export async function giveBackRateLimit(db: DB, taken: Taken): Promise<void> {
  if (taken.ids.length === 0) return;
  await db.deleteFrom("request_limits").where("id", "in", taken.ids).execute();
}

/** Forgets every request counted against a rule for `who` (a sign-in clears its account's failures). */
export async function clearRateLimit(db: DB, rule: RateLimit, who: Requester): Promise<void> {
  await db.deleteFrom("request_limits").where("rule", "=", rule.name).where("key", "=", keyOf(rule, who)).execute();
}

/** Whether `client` signed in to the account of `email` within KNOWN_CLIENT's window. */
export async function isKnownClient(db: DB, who: { email: string; client: string }, now = new Date()): Promise<boolean> {
  const row = await db
    .selectFrom("request_limits")
    .select("id")
    .where("rule", "=", KNOWN_CLIENT.name)
    .where("key", "=", keyOf(KNOWN_CLIENT, who))
    .where("at", ">", windowStart(now, KNOWN_CLIENT.windowMinutes))
    .executeTakeFirst();
  return row !== undefined;
}

/** `client` signed in to the account of `email`: it is known to the account from now on. */
export async function rememberClient(db: DB, who: { email: string; client: string }, now = new Date()): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const key = keyOf(KNOWN_CLIENT, who);
    await trx
      .deleteFrom("request_limits")
      .where("rule", "=", KNOWN_CLIENT.name)
      .where((eb) => eb.or([eb("key", "=", key), eb("at", "<=", windowStart(now, KNOWN_CLIENT.windowMinutes))]))
      .execute();
    await trx.insertInto("request_limits").values({ rule: KNOWN_CLIENT.name, key, at: now.toISOString() }).execute();
  });
}
