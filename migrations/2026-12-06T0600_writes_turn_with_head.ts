import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * On PostgreSQL a scoped write takes its turn (the writes' advisory lock, db/dialect.ts) and reads
 * the audit chain's head and its actors' emails in one round trip: this function takes the lock,
 * then reads. A VOLATILE function's statements each read with a snapshot of their own, so the
 * read sees what the write before it committed while it waited. SQLite needs no such function:
 * its single writer runs in the process.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  const schema = (await sql<{ s: string }>`select quote_ident(current_schema()) as s`.execute(db)).rows[0]!.s;
  await sql
    .raw(
      `create or replace function take_writes_turn(turn_key bigint, actor_ids text[])
      returns table (head_id integer, head_hash text, last_entry_id integer, last_entry_hash text, emails json)
      language plpgsql volatile set search_path = ${schema}, pg_temp as $$
      begin
        perform pg_advisory_xact_lock(turn_key);
        return query select
          (select h.last_id from audit_head h where h.id = 1),
          (select h.last_hash from audit_head h where h.id = 1),
          (select a.id from audit_log a order by a.id desc limit 1),
          (select a.hash from audit_log a order by a.id desc limit 1),
          (select coalesce(json_object_agg(u.id, u.email), '{}'::json) from users u where u.id = any(actor_ids));
      end $$`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== "postgres") return;
  await sql`drop function if exists take_writes_turn(bigint, text[])`.execute(db);
}
