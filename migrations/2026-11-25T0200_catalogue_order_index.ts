import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The catalogue lists open courses by tier, name and then id (two courses may share a name).
 * The index stopped at name, so every catalogue page sorted all open courses again to break
 * ties; with id in the index the page is read in order and the sort goes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("courses_active_tier_idx").execute();
  await db.schema.createIndex("courses_active_tier_idx").on("courses").columns(["is_active", "tier", "name", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("courses_active_tier_idx").execute();
  await db.schema.createIndex("courses_active_tier_idx").on("courses").columns(["is_active", "tier", "name"]).execute();
}
