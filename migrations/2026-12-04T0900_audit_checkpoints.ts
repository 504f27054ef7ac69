import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The audit trail's signed checkpoints (docs/decisions/017-audit-integrity.md): each row says
 * that the trail was verified up to entry `through_id`, whose hash was `through_hash`, signed
 * with HMAC-SHA256 under AUDIT_KEY, a key the database never holds (db/audit-chain.ts).
 * Numbered 1, 2, 3… and appended only: triggers refuse a change, a removal and a number out of
 * turn, and on PostgreSQL the portal's role keeps only SELECT and INSERT. Whoever drops the
 * triggers can still change a row, but cannot sign it again.
 */

const APPEND_ONLY = "audit_checkpoints is append-only: a new checkpoint takes the next number";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("audit_checkpoints")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("through_id", "integer", (c) => c.notNull())
    .addColumn("through_hash", "text", (c) => c.notNull())
    .addColumn("made_at", "text", (c) => c.notNull())
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("prev_signature", "text", (c) => c.notNull())
    .addColumn("signature", "text", (c) => c.notNull())
    .execute();
  if (dialectOf(db) === "postgres") {
    await sql
      .raw(
        `create function audit_checkpoints_append_only() returns trigger language plpgsql as $$
         begin
           if tg_op = 'INSERT' and new.id = (select coalesce(max(id), 0) + 1 from audit_checkpoints) then
             return new;
           end if;
           raise exception '${APPEND_ONLY}';
         end $$`,
      )
      .execute(db);
    await sql`create trigger audit_checkpoints_append_only before insert or update or delete on audit_checkpoints for each row execute function audit_checkpoints_append_only()`.execute(db);
    await sql`create trigger audit_checkpoints_no_truncate before truncate on audit_checkpoints for each statement execute function audit_checkpoints_append_only()`.execute(db);
    // Tables a migration creates come with the portal role's default rights (db/roles.ts): here it
    // keeps only SELECT and INSERT, whether or not db:roles is run again after this migration.
    await sql
      .raw(
        `do $$ declare r record; begin
           for r in select distinct grantee from information_schema.role_table_grants
                    where table_schema = current_schema() and table_name = 'audit_checkpoints' and grantee not in (current_user, 'PUBLIC') loop
             execute format('revoke update, delete, truncate on audit_checkpoints from %I', r.grantee);
           end loop;
         end $$`,
      )
      .execute(db);
  } else {
    // the insert guard also stops INSERT OR REPLACE over an existing number, which would delete
    // the row without firing the delete trigger
    await sql
      .raw(
        `create trigger audit_checkpoints_next_only before insert on audit_checkpoints
         when new.id is null or new.id is not (select coalesce(max(id), 0) + 1 from audit_checkpoints)
         begin select raise(abort, '${APPEND_ONLY}'); end`,
      )
      .execute(db);
    await sql.raw(`create trigger audit_checkpoints_no_update before update on audit_checkpoints begin select raise(abort, '${APPEND_ONLY}'); end`).execute(db);
    await sql.raw(`create trigger audit_checkpoints_no_delete before delete on audit_checkpoints begin select raise(abort, '${APPEND_ONLY}'); end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_checkpoints").execute();
  if (dialectOf(db) === "postgres") await sql`drop function if exists audit_checkpoints_append_only()`.execute(db);
}
