import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * On PostgreSQL the audit trail's head moves once per insert statement, to the last entry it
 * appended, so one statement can append a write's several entries (recordAudit writes them
 * together when the write commits). A row trigger fires only after the whole statement there,
 * and moving the head to the first of three entries while the third is already in audit_log is
 * what the head's guard refuses. The guard and the insert guard are unchanged: the head still
 * only moves forward, to the last entry in the table. SQLite runs row triggers row by row: its
 * trigger stays.
 */

/** Replaces the head's trigger: its function's body (plpgsql) and when it fires. */
async function moveHead(db: Kysely<any>, body: string, fires: string): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  const schema = (await sql<{ s: string }>`select quote_ident(current_schema()) as s`.execute(db)).rows[0]!.s;
  await sql`drop trigger audit_log_move_head on audit_log`.execute(db);
  await sql.raw(`create or replace function audit_log_move_head() returns trigger language plpgsql security definer set search_path = ${schema}, pg_temp as $$ begin ${body}; return null; end $$`).execute(db);
  await sql.raw(`create trigger audit_log_move_head after insert on audit_log ${fires} execute function audit_log_move_head()`).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await moveHead(db, "update audit_head set last_id = a.id, last_hash = a.hash from (select id, hash from appended order by id desc limit 1) a", "referencing new table as appended for each statement");
}

export async function down(db: Kysely<any>): Promise<void> {
  await moveHead(db, "update audit_head set last_id = new.id, last_hash = new.hash", "for each row");
}
