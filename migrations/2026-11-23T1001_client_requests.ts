import type { Kysely } from "kysely";
import { dialectSql } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Requests counted per client (registrations), so one client cannot create accounts, and
 * hash their passwords, without limit. Sign-in attempts get an index for the question "has
 * this client signed in to this account before?".
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("client_requests")
    .addColumn("id", "integer", dialectSql(db).autoIncrementKey)
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("client", "text", (c) => c.notNull())
    .addColumn("requested_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("client_requests_action_client_idx")
    .on("client_requests")
    .columns(["action", "client", "requested_at"])
    .execute();
  await db.schema
    .createIndex("sign_in_attempts_email_client_idx")
    .on("sign_in_attempts")
    .columns(["email", "client", "succeeded", "attempted_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("sign_in_attempts_email_client_idx").ifExists().execute();
  await db.schema.dropTable("client_requests").ifExists().execute();
}
