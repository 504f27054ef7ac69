import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * One-time tokens spent on a change that must be stored once (a payment, a credit note, a group
 * booking): the hidden token of the form that posted it, or an /api call's Idempotency-Key. A
 * token's row is written in the transaction of the change it carried, so of two posts with the
 * same token one commits and the other meets the primary key. The key is the user and the
 * token: an Idempotency-Key is chosen by the client, and one user's choice must never refuse
 * another user's call. Rows are removed by the background runner once no page could still send
 * them (models/spent-tokens.server.ts), so the table stays small; used_at leads that deletion.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("spent_tokens")
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull())
    // payment, credit_note or booking: what the token was spent on
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("used_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("spent_tokens_pkey", ["user_id", "token"])
    .execute();
  await db.schema.createIndex("spent_tokens_used_at").on("spent_tokens").column("used_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("spent_tokens").execute();
}
