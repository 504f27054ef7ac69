import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Webhooks: endpoints an administrator registers, and a queue of deliveries beside the mail
 * outbox with the same claim and lease. A delivery is written in the transaction of the change
 * it tells of, one row per endpoint; its id is the `webhook-id` every try sends, so a receiver
 * can fold retries into one event. `key` (event cause + endpoint) is unique, so a change
 * retried queues one delivery per endpoint. An endpoint keeps its previous secret until
 * previous_secret_until (24 hours after a rotation): both signatures go out meanwhile.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    // admin or trainer: whose reading rules the payloads follow
    .addColumn("audience", "text", (c) => c.notNull())
    // JSON array of event types
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_secret_until", "text")
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_by", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("endpoint_id", "text", (c) => c.notNull().references("webhook_endpoints.id"))
    .addColumn("event_type", "text", (c) => c.notNull())
    // the body every try sends, byte for byte
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("claimed_by", "text")
    .addColumn("claimed_until", "text")
    .addColumn("delivered_at", "text")
    .addColumn("last_attempt_at", "text")
    .addColumn("response_status", "integer")
    .addColumn("response_excerpt", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_deliveries_due").on("webhook_deliveries").columns(["state", "next_attempt_at"]).execute();
  await db.schema.createIndex("webhook_deliveries_endpoint").on("webhook_deliveries").columns(["endpoint_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhook_endpoints").execute();
}
