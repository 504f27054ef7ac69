import { sql, type Kysely } from "kysely";
import { dialectSql } from "../db/dialect";
import * as passwordResetRequests from "./2026-11-22T1000_password_reset_requests";
import * as clientRequests from "./2026-11-23T1001_client_requests";
import * as requestCounts from "./2026-11-23T1102_request_counts";
import * as resetRequestKnown from "./2026-11-26T0101_reset_request_known";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * One table for every request limit (app/auth/request-limits.server.ts), in place of four:
 * sign_in_attempts, client_requests, request_counts and password_reset_requests. Each row is one
 * request counted against a rule (`rule` its name, `key` what it counts by: a client, an email,
 * "email client", a user id), or a client known to an account (rule `known-client`).
 *
 * What still counts moves over, so a deployment neither forgets the clients an account knows
 * (their own sign-in and reset limits) nor hands a client over its limit a fresh one. The rule
 * names and windows below are those of the module on the day this migration was written.
 */

const MINUTE = 60_000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("request_limits")
    .addColumn("id", "integer", dialectSql(db).autoIncrementKey)
    .addColumn("rule", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("at", "text", (c) => c.notNull())
    .execute();
  // Counting one key's requests in a window; removing a rule's requests that left the window.
  await db.schema.createIndex("request_limits_rule_key_at_idx").on("request_limits").columns(["rule", "key", "at"]).execute();
  await db.schema.createIndex("request_limits_rule_at_idx").on("request_limits").columns(["rule", "at"]).execute();

  const now = Date.now();
  const since = (minutes: number) => new Date(now - minutes * MINUTE).toISOString();

  // Clients that signed in to an account in the last 90 days.
  await sql`
    insert into request_limits (rule, key, at)
    select 'known-client', email || ' ' || client, max(attempted_at) from sign_in_attempts
    where succeeded = 1 and attempted_at > ${since(90 * 24 * 60)}
    group by email, client`.execute(db);

  // Wrong passwords of the last 15 minutes: per account since its last success (a known client's
  // against its own limit), and per client.
  const failures = sql`
    from sign_in_attempts f
    where f.succeeded = 0 and f.attempted_at > ${since(15)}
      and f.attempted_at > coalesce((select max(s.attempted_at) from sign_in_attempts s where s.email = f.email and s.succeeded = 1), '')`;
  const known = sql`exists (select 1 from request_limits k where k.rule = 'known-client' and k.key = f.email || ' ' || f.client)`;
  await sql`insert into request_limits (rule, key, at) select 'sign-in:known-client', f.email || ' ' || f.client, f.attempted_at ${failures} and ${known}`.execute(db);
  await sql`insert into request_limits (rule, key, at) select 'sign-in:account', f.email, f.attempted_at ${failures} and not ${known}`.execute(db);
  await sql`
    insert into request_limits (rule, key, at)
    select 'sign-in:client', client, attempted_at from sign_in_attempts where succeeded = 0 and attempted_at > ${since(15)}`.execute(db);

  await sql`
    insert into request_limits (rule, key, at)
    select 'registration', client, requested_at from client_requests where action = 'register' and requested_at > ${since(60)}`.execute(db);

  const resets = sql`from password_reset_requests where requested_at > ${since(60)}`;
  await sql`insert into request_limits (rule, key, at) select 'reset:client', client, requested_at ${resets}`.execute(db);
  await sql`insert into request_limits (rule, key, at) select 'reset:email', email || ' ' || client, requested_at ${resets}`.execute(db);
  await sql`insert into request_limits (rule, key, at) select 'reset:strangers', email, requested_at ${resets} and known = 0`.execute(db);

  // Fixed windows still open: their count (no more than the limit matters) as requests made at
  // the window's start, which leave the sliding window when the fixed one would have ended.
  const scopes: Record<string, { rule: string; limit: number; minutes: number }> = {
    verify: { rule: "verification", limit: 30, minutes: 10 },
    "second-step": { rule: "second-step", limit: 5, minutes: 15 },
  };
  const open = await db.selectFrom("request_counts").select(["scope", "client", "window_start", "n"]).execute();
  for (const row of open) {
    const scope = scopes[row.scope as string];
    if (!scope || (row.window_start as string) <= since(scope.minutes)) continue;
    const rows = Array.from({ length: Math.min(Number(row.n), scope.limit) }, () => ({ rule: scope.rule, key: row.client, at: row.window_start }));
    if (rows.length > 0) await db.insertInto("request_limits").values(rows).execute();
  }

  for (const table of ["sign_in_attempts", "client_requests", "request_counts", "password_reset_requests"]) {
    await db.schema.dropTable(table).execute();
  }
}

/**
 * The four tables again, made as the migrations that first made them did; only the known
 * clients move back (counts start afresh).
 */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sign_in_attempts")
    .addColumn("id", "integer", dialectSql(db).autoIncrementKey)
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("client", "text", (c) => c.notNull())
    .addColumn("succeeded", "integer", (c) => c.notNull())
    .addColumn("attempted_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sign_in_attempts_email_idx").on("sign_in_attempts").columns(["email", "attempted_at"]).execute();
  await db.schema.createIndex("sign_in_attempts_client_idx").on("sign_in_attempts").columns(["client", "attempted_at"]).execute();
  await passwordResetRequests.up(db);
  await clientRequests.up(db);
  await requestCounts.up(db);
  await resetRequestKnown.up(db);

  // A key is "email client"; the client never holds a space.
  const known = await db.selectFrom("request_limits").select(["key", "at"]).where("rule", "=", "known-client").execute();
  for (const { key, at } of known) {
    const split = (key as string).lastIndexOf(" ");
    await db
      .insertInto("sign_in_attempts")
      .values({ email: (key as string).slice(0, split), client: (key as string).slice(split + 1), succeeded: 1, attempted_at: at })
      .execute();
  }
  await db.schema.dropTable("request_limits").execute();
}
