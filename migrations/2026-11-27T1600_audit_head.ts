import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The audit trail's head (docs/decisions/017-audit-integrity.md): a one-row table beside
 * audit_log holding the id and hash of its last entry, moved by a trigger in the same statement
 * as each insert, whatever inserts it. A removed tail no longer leaves a shorter chain that
 * verifies: the head still names the entry that was last, and the next entry takes the number
 * after the head and links to the head's hash, so the gap stays in the trail.
 *
 * The head only moves forward, to the entry just appended: triggers refuse an update that does
 * anything else, a delete, a second row (on SQLite `INSERT OR REPLACE` would delete the row
 * without firing a delete trigger) and on PostgreSQL TRUNCATE. audit_log's insert guard now
 * takes the next number from the head, not from the highest id left in the table, unless
 * entries were written past the head while audit_log's triggers were off: the next one then
 * follows the last of those (and moves the head to it), so the portal keeps writing, and the
 * verifier still finds the tail removed before them by its broken link.
 *
 * `gapless_after` is the last entry that follows a gap in ids when the head was made: gaps left
 * by rolled-back writes before the chain existed, which its migration linked across. Entries
 * after it run without gaps, so a later gap is a removal even when the links were mended.
 */

const OUT_OF_ORDER = "audit_log is append-only: a new entry takes the number after audit_head and links to its hash";
const HEAD_FIXED = "audit_head only moves forward, to the entry just appended to audit_log";
/** audit_log's insert guard as migration 2026-11-27T1100 made it, restored by down(). */
const OLD_OUT_OF_ORDER = "audit_log is append-only: a new entry takes the next number and carries its hashes";
const GENESIS_HASH = "0".repeat(64);

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await db.schema
    .createTable("audit_head")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("last_id", "integer", (c) => c.notNull())
    .addColumn("last_hash", "text", (c) => c.notNull())
    .addColumn("gapless_after", "integer", (c) => c.notNull())
    .execute();
  const { rows } = await sql<{ last_id: number | null; last_hash: string | null; gapless_after: number | null }>`
    select (select max(id) from audit_log) as last_id,
           (select hash from audit_log where id = (select max(id) from audit_log)) as last_hash,
           (select max(a.id) from audit_log a where a.id > 1 and not exists (select 1 from audit_log b where b.id = a.id - 1)) as gapless_after`.execute(db);
  const start = rows[0]!;
  await db
    .insertInto("audit_head")
    .values({ id: 1, last_id: start.last_id ?? 0, last_hash: start.last_hash ?? GENESIS_HASH, gapless_after: start.gapless_after ?? 0 })
    .execute();

  if (postgres) {
    const schema = (await sql<{ s: string }>`select quote_ident(current_schema()) as s`.execute(db)).rows[0]!.s;
    // The head moves with the rights of its owner, so the portal's role needs none to write it;
    // search_path is pinned so a caller's own tables cannot stand in for it.
    await sql
      .raw(
        `create function audit_log_move_head() returns trigger language plpgsql security definer set search_path = ${schema}, pg_temp as $$
         begin
           update audit_head set last_id = new.id, last_hash = new.hash;
           return null;
         end $$`,
      )
      .execute(db);
    await sql`create trigger audit_log_move_head after insert on audit_log for each row execute function audit_log_move_head()`.execute(db);
    await sql
      .raw(
        `create function audit_head_forward_only() returns trigger language plpgsql as $$
         begin
           if tg_op = 'UPDATE' and new.id = old.id and new.gapless_after = old.gapless_after
              and new.last_id > old.last_id and new.last_id = (select max(id) from audit_log)
              and new.last_hash = (select hash from audit_log where id = new.last_id) then
             return new;
           end if;
           raise exception '${HEAD_FIXED}';
         end $$`,
      )
      .execute(db);
    await sql`create trigger audit_head_forward_only before insert or update or delete on audit_head for each row execute function audit_head_forward_only()`.execute(db);
    await sql`create trigger audit_head_no_truncate before truncate on audit_head for each statement execute function audit_head_forward_only()`.execute(db);
    await sql
      .raw(
        `create or replace function audit_log_next_only() returns trigger language plpgsql as $$
         begin
           if new.hash is null
              or new.id is distinct from (select greatest(h.last_id, coalesce((select max(id) from audit_log), 0)) + 1 from audit_head h)
              or new.prev_hash is distinct from (select case when coalesce((select max(id) from audit_log), 0) > h.last_id
                                                             then (select hash from audit_log where id = (select max(id) from audit_log))
                                                             else h.last_hash end from audit_head h) then
             raise exception '${OUT_OF_ORDER}';
           end if;
           return new;
         end $$`,
      )
      .execute(db);
    // Tables a migration creates come with the portal role's default rights (db/roles.ts): on
    // the head it keeps only SELECT, whether or not db:roles is run again after this migration.
    await sql
      .raw(
        `do $$ declare r record; begin
           for r in select distinct grantee from information_schema.role_table_grants
                    where table_schema = current_schema() and table_name = 'audit_head' and grantee not in (current_user, 'PUBLIC') loop
             execute format('revoke insert, update, delete, truncate on audit_head from %I', r.grantee);
           end loop;
         end $$`,
      )
      .execute(db);
  } else {
    await sql`create trigger audit_log_move_head after insert on audit_log begin update audit_head set last_id = new.id, last_hash = new.hash; end`.execute(db);
    await sql
      .raw(
        `create trigger audit_head_forward_only before update on audit_head
         when new.id is not old.id or new.gapless_after is not old.gapless_after
           or new.last_id <= old.last_id or new.last_id is not (select max(id) from audit_log)
           or new.last_hash is not (select hash from audit_log where id = new.last_id)
         begin select raise(abort, '${HEAD_FIXED}'); end`,
      )
      .execute(db);
    await sql.raw(`create trigger audit_head_no_delete before delete on audit_head begin select raise(abort, '${HEAD_FIXED}'); end`).execute(db);
    await sql.raw(`create trigger audit_head_no_insert before insert on audit_head begin select raise(abort, '${HEAD_FIXED}'); end`).execute(db);
    await sql`drop trigger audit_log_next_only`.execute(db);
    await sql
      .raw(
        `create trigger audit_log_next_only before insert on audit_log
         when new.id is null or new.hash is null
           or new.id is not (select max(h.last_id, coalesce((select max(id) from audit_log), 0)) + 1 from audit_head h)
           or new.prev_hash is not (select case when coalesce((select max(id) from audit_log), 0) > h.last_id
                                                then (select hash from audit_log where id = (select max(id) from audit_log))
                                                else h.last_hash end from audit_head h)
         begin select raise(abort, '${OUT_OF_ORDER}'); end`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists audit_log_move_head on audit_log`.execute(db);
    await sql`drop function if exists audit_log_move_head()`.execute(db);
    await sql
      .raw(
        `create or replace function audit_log_next_only() returns trigger language plpgsql as $$
         begin
           if new.id is distinct from (select coalesce(max(id), 0) + 1 from audit_log) or new.hash is null or new.prev_hash is null then
             raise exception '${OLD_OUT_OF_ORDER}';
           end if;
           return new;
         end $$`,
      )
      .execute(db);
    await db.schema.dropTable("audit_head").execute();
    await sql`drop function if exists audit_head_forward_only()`.execute(db);
  } else {
    await sql`drop trigger if exists audit_log_move_head`.execute(db);
    await sql`drop trigger if exists audit_log_next_only`.execute(db);
    await sql
      .raw(
        `create trigger audit_log_next_only before insert on audit_log
         when new.id is null or new.id <> coalesce((select max(id) from audit_log), 0) + 1 or new.hash is null or new.prev_hash is null
         begin select raise(abort, '${OLD_OUT_OF_ORDER}'); end`,
      )
      .execute(db);
    await db.schema.dropTable("audit_head").execute();
  }
}
