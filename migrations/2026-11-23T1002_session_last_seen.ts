import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * When each session was last used, so a session left alone for the idle limit ends even
 * before its absolute expiry. Existing sessions count as used when they were created.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("last_seen_at", "text").execute();
  await sql`update sessions set last_seen_at = created_at`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
}
