import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The AVETMISS readiness list kept in the database, checked by the runner (app/avetmiss/
 * readiness.server.ts): at a national provider's volume the check reads a year's 900,000
 * activities and finds hundreds of thousands of problems, 50 s and 650 MB in the worker that
 * ran it for the reports page. One row per year says what the last check read (the `avetmiss`
 * change counter, the organisation's day and the organisation) and its summary; its issues are
 * rows of their own under the check's generation, so a new check is written beside the old
 * one and takes its place in one statement. `claimed_until` is the lease of the worker checking.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table avetmiss_readiness (
      year integer primary key,
      generation text,
      version integer,
      checked_day text,
      organisation text,
      checked_at text,
      took_ms integer,
      active integer not null default 0,
      counts text not null default '{}',
      groups text not null default '[]',
      issue_count integer not null default 0,
      claimed_until text
    )`.execute(db);
  await sql`
    create table avetmiss_issues (
      generation text not null,
      seq integer not null,
      rank integer not null,
      file text not null,
      record text not null,
      key text not null,
      field text not null,
      problem text not null,
      href text not null,
      primary key (generation, seq)
    )`.execute(db);
  // the list's order: each record's own problems by file, then each rule on facts in turn
  await sql`create index avetmiss_issues_order on avetmiss_issues (generation, rank, file, seq)`.execute(db);
  // the list's search by name or number (a trigram index, as users_search): without it a rare
  // name read all 470,000 problems of a national provider's year (0.5 s). SQLite's lists are small.
  if (dialectOf(db) === "postgres") {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index avetmiss_issues_search on avetmiss_issues using gin (lower(record) gin_trgm_ops)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists avetmiss_issues`.execute(db);
  await sql`drop table if exists avetmiss_readiness`.execute(db);
}
