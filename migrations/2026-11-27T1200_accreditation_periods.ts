import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Accreditations have a start as well as an end, and a renewal is a period of its own beside
 * the earlier one (docs/decisions/011-hrw-assessments.md): an assessor whose accreditation
 * lapsed and was renewed later is not covered for the days in between.
 *
 * - hrw_accreditations.starts_on: the first day the period covers. Rows recorded before this
 *   migration had no start; they start on the day they were recorded (the UTC date of
 *   created_at), the earliest day the portal knew of them, so no period reaches back over a
 *   gap nobody recorded. An office that knows an earlier start adds that period itself. The
 *   column's default ('9999-12-31', a period that never starts) only fills the rows while they
 *   are rewritten here; the app always writes a start, and a row without one would cover
 *   nothing rather than everything.
 * - created_at, already there, is when the period was recorded: a result counts only under a
 *   period recorded before the result was.
 * - One accreditation number may now have several periods: unique per regulator, number and
 *   start instead of per regulator and number.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table hrw_accreditations add column starts_on text not null default '9999-12-31'`.execute(db);
  await sql`update hrw_accreditations set starts_on = substr(created_at, 1, 10)`.execute(db);
  if (dialectOf(db) === "postgres") await sql`alter table hrw_accreditations alter column starts_on drop default`.execute(db);
  await db.schema.dropIndex("hrw_accreditations_number").execute();
  await db.schema.createIndex("hrw_accreditations_period").unique().on("hrw_accreditations").columns(["regulator", "number", "starts_on"]).execute();
}

/** Back to one row per number: fails while a number has more than one period (keep the one wanted first). */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("hrw_accreditations_period").execute();
  await db.schema.createIndex("hrw_accreditations_number").unique().on("hrw_accreditations").columns(["regulator", "number"]).execute();
  await sql`alter table hrw_accreditations drop column starts_on`.execute(db);
}
