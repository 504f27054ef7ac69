import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * A course's public page (kept by the page cache like the catalogue) shows each coming class's
 * sessions, which the `catalogue` change counter did not follow: any write to class_sessions now
 * moves it too, so a session moved by the office shows on the next request. The counter's
 * function on PostgreSQL is the one migration 2026-11-26T0821 made.
 */

const BUMP = "update change_counters set version = version + 1 where topic = 'catalogue';";
const EVENTS = ["insert", "update", "delete"];

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql
      .raw("create trigger catalogue_version after insert or update or delete or truncate on class_sessions for each statement execute function catalogue_version_bump()")
      .execute(db);
    return;
  }
  for (const event of EVENTS) {
    await sql.raw(`create trigger catalogue_version_class_sessions_${event} after ${event} on class_sessions begin ${BUMP} end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql.raw("drop trigger if exists catalogue_version on class_sessions").execute(db);
    return;
  }
  for (const event of EVENTS) await sql.raw(`drop trigger if exists catalogue_version_class_sessions_${event}`).execute(db);
}
