import { sql, type Kysely } from "kysely";
import { dialectOf, dialectSql } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The audit trail of security-relevant events, and staff two-step sign-in (TOTP).
 *
 * audit_log is append-only, and the database holds it so: triggers refuse every UPDATE and
 * DELETE (and on PostgreSQL TRUNCATE), whatever code or console issues them. Rows name people
 * by id and by the email they had then, with no foreign key, so the trail outlives the
 * accounts it mentions. `fields` lists the names of changed fields, never their values.
 *
 * two_step holds one authenticator secret per user: set-up begun (confirmed_at null) or in use.
 * last_step is the newest 30-second step a code was accepted for, so a code is used once.
 * recovery_codes holds the SHA-256 of each single-use recovery code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { autoIncrementKey } = dialectSql(db);
  await db.schema
    .createTable("audit_log")
    .addColumn("id", "integer", autoIncrementKey)
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("actor_id", "text")
    .addColumn("actor_email", "text")
    .addColumn("subject_type", "text")
    .addColumn("subject_id", "text")
    .addColumn("subject_user_id", "text")
    .addColumn("client", "text")
    .addColumn("fields", "text")
    .addColumn("detail", "text")
    .execute();
  for (const column of ["at", "actor_id", "subject_user_id", "subject_id", "action"]) {
    const columns = column === "at" ? ["at"] : [column, "at"];
    await db.schema.createIndex(`audit_log_${column}_idx`).on("audit_log").columns(columns).execute();
  }
  if (dialectOf(db) === "postgres") {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_no_change before update or delete on audit_log for each row execute function audit_log_append_only()`.execute(db);
    await sql`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }

  await db.schema
    .createTable("two_step")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("confirmed_at", "text")
    .addColumn("last_step", "integer")
    .execute();
  await db.schema
    .createTable("recovery_codes")
    .addColumn("id", "integer", autoIncrementKey)
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("recovery_codes_user_idx").on("recovery_codes").columns(["user_id", "code_hash"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("recovery_codes").ifExists().execute();
  await db.schema.dropTable("two_step").ifExists().execute();
  await db.schema.dropTable("audit_log").ifExists().execute();
  if (dialectOf(db) === "postgres") await sql`drop function if exists audit_log_append_only()`.execute(db);
}
