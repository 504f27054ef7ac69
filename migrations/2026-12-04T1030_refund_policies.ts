import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The refund policy's versions as data: each with the day it took effect, so a credit note cites
 * the version in force on the day the learner enrolled (not whichever is current when the refund
 * is made). Seeded with the version the portal has shown since 2026-11-22; an enrolment made before
 * that day has no version in force and cites none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("refund_policies")
    .addColumn("version", "text", (c) => c.primaryKey())
    .addColumn("effective_from", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("created_by", "text")
    .execute();
  await db.insertInto("refund_policies").values({ version: "2026-11-22", effective_from: "2026-11-22", created_at: "2026-11-22T00:00:00.000Z", created_by: null }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("refund_policies").execute();
}
