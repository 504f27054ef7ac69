import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * sign_in_steps: the state between a right password and its second step, kept on the server so
 * that it completes one sign-in only. The browser's short-lived cookie names a row by its id
 * (random, 32 bytes); the row says whose sign-in it is, until when, and when it was used. The
 * sign-in that uses it marks it in the same transaction that starts the session.
 *
 * two_step.pending_secret: a new authenticator being set up while the one in use keeps working
 * (setting two-step sign-in up again); it replaces `secret` when a code from it confirms it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sign_in_steps")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("sign_in_steps_expires_idx").on("sign_in_steps").column("expires_at").execute();
  await db.schema.alterTable("two_step").addColumn("pending_secret", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("two_step").dropColumn("pending_secret").execute();
  await db.schema.dropTable("sign_in_steps").ifExists().execute();
}
