import type { Kysely } from "kysely";
import { dialectSql } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Every accepted password reset request, known email or not, so requests can be throttled per
 * email and per client without revealing which emails have accounts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("password_reset_requests")
    .addColumn("id", "integer", dialectSql(db).autoIncrementKey)
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("client", "text", (c) => c.notNull())
    .addColumn("requested_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("password_reset_requests_email_idx")
    .on("password_reset_requests")
    .columns(["email", "requested_at"])
    .execute();
  await db.schema
    .createIndex("password_reset_requests_client_idx")
    .on("password_reset_requests")
    .columns(["client", "requested_at"])
    .execute();
  await db.schema
    .createIndex("password_reset_requests_time_idx")
    .on("password_reset_requests")
    .column("requested_at")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("password_reset_requests").execute();
}
