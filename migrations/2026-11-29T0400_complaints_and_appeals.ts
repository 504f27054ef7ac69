import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Complaints and appeals.
 *
 * - complaints: one row per complaint or appeal (kind). reference is the human-readable,
 *   unique name (C-2026-0001, A-2026-0001) drawn from complaint_sequence. A complaint may be
 *   anonymous (lodged_by, name and email all null); an appeal is always a learner's, about one
 *   of their assessments (assessment_kind and assessment_id) whose decision was assessor_id's.
 *   decider_id is the staff member an admin assigned to decide an appeal (never the assessor).
 *   acknowledge_by and resolve_by are the organisation's calendar days the clocks run to,
 *   fixed when it is received. status: received -> acknowledged -> resolved, each with who and when.
 * - complaint_sequence: the last number handed out per prefix and year; only ever grows.
 * - complaint_settings: the clocks' lengths and the public policy's text, set by admins.
 * - outbox_messages gains an address of its own (recipient_email, recipient_name) for a
 *   complainant who has no account; recipient_id becomes optional for those rows only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("complaints")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("lodged_by", "text", (c) => c.references("users.id"))
    .addColumn("name", "text")
    .addColumn("email", "text")
    .addColumn("phone", "text")
    .addColumn("details", "text", (c) => c.notNull())
    .addColumn("assessment_kind", "text")
    .addColumn("assessment_id", "text")
    .addColumn("assessor_id", "text", (c) => c.references("users.id"))
    .addColumn("decider_id", "text", (c) => c.references("users.id"))
    .addColumn("received_at", "text", (c) => c.notNull())
    .addColumn("acknowledge_by", "text", (c) => c.notNull())
    .addColumn("resolve_by", "text", (c) => c.notNull())
    .addColumn("acknowledged_at", "text")
    .addColumn("acknowledged_by", "text", (c) => c.references("users.id"))
    .addColumn("resolved_at", "text")
    .addColumn("resolved_by", "text", (c) => c.references("users.id"))
    .addColumn("outcome", "text")
    .addColumn("reasons", "text")
    .addColumn("changed_result", "text")
    .execute();
  await db.schema.createIndex("complaints_status").on("complaints").columns(["status", "resolve_by"]).execute();
  await db.schema.createIndex("complaints_received").on("complaints").columns(["received_at"]).execute();
  await db.schema.createIndex("complaints_lodged_by").on("complaints").columns(["lodged_by", "received_at"]).execute();
  await db.schema.createIndex("complaints_assessment").on("complaints").columns(["assessment_kind", "assessment_id"]).execute();
  await db.schema.createIndex("complaints_decider").on("complaints").columns(["decider_id", "status"]).execute();

  await db.schema
    .createTable("complaint_sequence")
    .addColumn("series", "text", (c) => c.primaryKey())
    .addColumn("last_value", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("complaint_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.references("users.id"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  if (dialectOf(db) === "postgres") {
    await sql`alter table outbox_messages alter column recipient_id drop not null`.execute(db);
    await sql`alter table outbox_messages add column recipient_email text`.execute(db);
    await sql`alter table outbox_messages add column recipient_name text`.execute(db);
  } else {
    // SQLite cannot drop a NOT NULL: the table is built again with the same rows and indexes
    await sql`create table outbox_messages_new (
      id text primary key, key text not null unique, recipient_id text references users(id),
      template text not null, data text not null, state text not null, attempts integer not null default 0,
      next_attempt_at text not null, claimed_by text, claimed_until text, sent_at text, last_error text,
      created_at text not null, recipient_email text, recipient_name text)`.execute(db);
    await sql`insert into outbox_messages_new (id, key, recipient_id, template, data, state, attempts, next_attempt_at, claimed_by, claimed_until, sent_at, last_error, created_at)
      select id, key, recipient_id, template, data, state, attempts, next_attempt_at, claimed_by, claimed_until, sent_at, last_error, created_at from outbox_messages`.execute(db);
    await sql`drop table outbox_messages`.execute(db);
    await sql`alter table outbox_messages_new rename to outbox_messages`.execute(db);
    await db.schema.createIndex("outbox_messages_due").on("outbox_messages").columns(["state", "next_attempt_at"]).execute();
    await db.schema.createIndex("outbox_messages_created").on("outbox_messages").columns(["created_at"]).execute();
    await db.schema.createIndex("outbox_messages_recipient").on("outbox_messages").columns(["recipient_id", "created_at"]).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  // messages to people without an account cannot go back into a table that needs one
  await db.deleteFrom("outbox_messages").where("recipient_id", "is", null).execute();
  if (dialectOf(db) === "postgres") {
    await sql`alter table outbox_messages drop column recipient_email`.execute(db);
    await sql`alter table outbox_messages drop column recipient_name`.execute(db);
    await sql`alter table outbox_messages alter column recipient_id set not null`.execute(db);
  } else {
    await sql`alter table outbox_messages drop column recipient_email`.execute(db);
    await sql`alter table outbox_messages drop column recipient_name`.execute(db);
  }
  for (const table of ["complaint_settings", "complaint_sequence", "complaints"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
