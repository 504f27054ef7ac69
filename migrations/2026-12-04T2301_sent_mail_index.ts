import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Background work at size (CONTRACT 23, issue 55 point 6). The claims already read only what
 * waits: outbox_messages_due and webhook_deliveries_due lead with the state, so a million sent
 * messages are a range the claim never enters (measured on PostgreSQL: 10 buffers, 0.05 ms).
 * What read them all was retention's search for sent mail past its keep (a sequential scan of
 * the table, 454 ms at a million). outbox_messages_sent orders messages by state and when they
 * were sent, so removal reads the oldest sent first and stops (models/outbox.server.ts
 * removeExpiredMail). Not a partial index (sent_at) where state = 'sent': SQLite, without
 * statistics, preferred the state column of outbox_messages_due and sorted every sent message.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("outbox_messages_sent").on("outbox_messages").columns(["state", "sent_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("outbox_messages_sent").execute();
}
