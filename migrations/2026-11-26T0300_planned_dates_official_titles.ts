import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * What NCVER's validation needs that the portal did not hold:
 * - enrollments.planned_start_date and planned_end_date (ISO dates, YYYY-MM-DD): the activity
 *   dates of NAT00120. Existing enrolments get their enrolment date and that date plus the
 *   unit's duration at eight hours a day (the rule the export used to apply on the fly), so an
 *   in-progress enrolment keeps the dates it was reported with until staff set real ones;
 * - courses.official_title: the unit's title on the national register, which NAT00060 carries
 *   (the course name is the catalogue's, with a licence class suffix). The units the portal
 *   has always offered get their register titles; any other stays empty until an
 *   administrator records it, and the readiness list asks for it.
 */

/** Register titles of the units the portal has offered (the source is in decision 009). */
const TITLES: Record<string, string> = {
  CPCCLDG3001: "Licence to perform dogging",
  CPCCLRG3001: "Licence to perform rigging basic level",
  CPCCLRG3002: "Licence to perform rigging intermediate level",
  CPCCLRG4001: "Licence to perform rigging advanced level",
  CPCCLTC4001: "Licence to operate a tower crane",
  TLILIC0033: "Licence to operate a vehicle loading crane (capacity 10 metre tonnes and above)",
  TLILIC0040: "Licence to operate a non-slewing mobile crane (greater than 3 tonnes capacity)",
  TLILIC0041: "Licence to operate a slewing mobile crane (up to 20 tonnes)",
};

const HOURS_PER_DAY = 8;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table enrollments add column planned_start_date text`.execute(db);
  await sql`alter table enrollments add column planned_end_date text`.execute(db);
  await sql`alter table courses add column official_title text`.execute(db);

  for (const [code, title] of Object.entries(TITLES)) {
    await db.updateTable("courses").set({ official_title: title }).where("unit_code", "=", code).execute();
  }

  // one statement per course (the days follow from its duration), not one per enrolment
  const courses = await db.selectFrom("courses").select(["id", "duration_hours"]).execute();
  const postgres = dialectOf(db) === "postgres";
  for (const c of courses) {
    const days = Math.max(1, Math.ceil(Number(c.duration_hours) / HOURS_PER_DAY));
    const end = postgres
      ? sql`to_char(cast(substr(enrollment_date, 1, 10) as date) + ${sql.lit(days)}, 'YYYY-MM-DD')`
      : sql`date(substr(enrollment_date, 1, 10), ${`+${days} days`})`;
    await db
      .updateTable("enrollments")
      .set({ planned_start_date: sql`substr(enrollment_date, 1, 10)`, planned_end_date: end })
      .where("course_id", "=", c.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table courses drop column official_title`.execute(db);
  await sql`alter table enrollments drop column planned_end_date`.execute(db);
  await sql`alter table enrollments drop column planned_start_date`.execute(db);
}
