import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Staff single sign-on (docs/decisions/038-single-sign-on.md). `users.break_glass` marks the
 * administrator `npm run admin:create` made: the one account whose password still works when
 * administrators require staff to sign in with the organisation's identity provider.
 * `sign_in_settings` holds that requirement (one row per setting, as the other settings tables).
 * `sessions.second_factor` says the provider reported a second factor for a session's sign-in,
 * which then satisfies the administrators' two-step rule without the portal's own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("break_glass", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("sessions").addColumn("second_factor", "text").execute();
  await db.schema
    .createTable("sign_in_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_by", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // accounts admin:create made before this migration are found by its audit entry
  await db
    .updateTable("users")
    .set({ break_glass: 1 })
    .where("id", "in", db.selectFrom("audit_log").select("subject_id").where("action", "=", "admin.created").where("subject_type", "=", "user"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sign_in_settings").execute();
  await db.schema.alterTable("sessions").dropColumn("second_factor").execute();
  await db.schema.alterTable("users").dropColumn("break_glass").execute();
}
