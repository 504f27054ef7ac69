import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/** When each user last marked their notifications read; events after it count as unread. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("notification_reads")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("seen_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("notification_reads").execute();
}
