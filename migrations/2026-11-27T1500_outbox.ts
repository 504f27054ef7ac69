import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The outbox: every mail the portal sends is first a row here, written in the same transaction
 * as the change it tells of, and delivered by the background runner (app/jobs/). The key is
 * unique, so a job that runs twice for one cause queues one message. A message is addressed to
 * a user (recipient_id); the address and name are read when it is sent, so none is copied
 * here. state: queued (waiting for its first try or a retry), sent, failed (a try failed; it is
 * retried at next_attempt_at) or given_up (the last try failed; staff send it again from
 * /admin/mail). claimed_by and claimed_until are the lease of the worker sending it: a lease
 * that lapses (the worker died) lets another worker take the message; once sent, claimed_by
 * says which worker sent it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("outbox_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("recipient_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("template", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("claimed_by", "text")
    .addColumn("claimed_until", "text")
    .addColumn("sent_at", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // the runner's question: what is due now, oldest first
  await db.schema.createIndex("outbox_messages_due").on("outbox_messages").columns(["state", "next_attempt_at"]).execute();
  // the Mail page: newest first, and one recipient's messages
  await db.schema.createIndex("outbox_messages_created").on("outbox_messages").columns(["created_at"]).execute();
  await db.schema.createIndex("outbox_messages_recipient").on("outbox_messages").columns(["recipient_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("outbox_messages").ifExists().execute();
}
