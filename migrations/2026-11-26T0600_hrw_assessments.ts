import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * High-risk work licence assessments (docs/decisions/011-hrw-assessments.md):
 * - courses.licence_class: the HRW licence class the course leads to (null: not a licence
 *   course); courses.licence_prerequisites: a JSON list of classes a candidate must already
 *   hold, null while the class's defaults apply;
 * - hrw_state_rules: per state, how many business days ahead the regulator must be told of an
 *   assessment (null: no notice asked);
 * - hrw_assessors and hrw_accreditations: the assessor register;
 * - hrw_candidate_checks: age, identity and prerequisite-licence checks, each with who and when;
 * - hrw_assessments (the bookings), hrw_assessment_parts (every NAI part result, history kept)
 *   and hrw_reminders (each licence-application reminder claimed once).
 */
const STATE_NOTICE: Array<[string, number | null]> = [
  ["ACT", null],
  ["NSW", 5],
  ["NT", null],
  ["QLD", 3],
  ["SA", null],
  ["TAS", null],
  ["VIC", null],
  ["WA", 1],
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table courses add column licence_class text`.execute(db);
  await sql`alter table courses add column licence_prerequisites text`.execute(db);

  await db.schema
    .createTable("hrw_state_rules")
    .addColumn("state", "text", (c) => c.primaryKey())
    .addColumn("notice_business_days", "integer")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.references("users.id"))
    .execute();
  const at = new Date().toISOString();
  for (const [state, days] of STATE_NOTICE) {
    await db.insertInto("hrw_state_rules").values({ state, notice_business_days: days, updated_at: at, updated_by: null }).execute();
  }

  await db.schema
    .createTable("hrw_assessors")
    .addColumn("trainer_id", "text", (c) => c.primaryKey().references("users.id"))
    .addColumn("licence_number", "text")
    .addColumn("licence_expires_on", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.references("users.id"))
    .execute();

  await db.schema
    .createTable("hrw_accreditations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("trainer_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("regulator", "text", (c) => c.notNull())
    .addColumn("number", "text", (c) => c.notNull())
    .addColumn("classes", "text", (c) => c.notNull())
    .addColumn("expires_on", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("hrw_accreditations_number").unique().on("hrw_accreditations").columns(["regulator", "number"]).execute();
  await db.schema.createIndex("hrw_accreditations_trainer").on("hrw_accreditations").column("trainer_id").execute();

  await db.schema
    .createTable("hrw_candidate_checks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("candidate_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("licence_class", "text")
    .addColumn("detail", "text", (c) => c.notNull())
    .addColumn("checked_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("checked_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("hrw_candidate_checks_candidate").on("hrw_candidate_checks").columns(["candidate_id", "kind", "checked_at"]).execute();

  await db.schema
    .createTable("hrw_assessments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("candidate_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("course_id", "text", (c) => c.notNull().references("courses.id"))
    .addColumn("licence_class", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("assessment_date", "text", (c) => c.notNull())
    .addColumn("start_time", "text", (c) => c.notNull())
    .addColumn("location_id", "text", (c) => c.notNull().references("delivery_locations.id"))
    .addColumn("assessor_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("plant_description", "text", (c) => c.notNull())
    .addColumn("plant_registration", "text", (c) => c.notNull())
    .addColumn("notice_due_on", "text")
    .addColumn("notice_reference", "text")
    .addColumn("notice_recorded_at", "text")
    .addColumn("notice_recorded_by", "text", (c) => c.references("users.id"))
    .addColumn("accreditation_id", "text", (c) => c.references("hrw_accreditations.id"))
    .addColumn("nsa_number", "text")
    .addColumn("nsa_date", "text")
    .addColumn("nsa_recorded_by", "text", (c) => c.references("users.id"))
    .addColumn("booked_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("hrw_assessments_nsa").unique().on("hrw_assessments").column("nsa_number").execute();
  await db.schema.createIndex("hrw_assessments_date").on("hrw_assessments").columns(["assessment_date", "id"]).execute();
  await db.schema.createIndex("hrw_assessments_assessor").on("hrw_assessments").columns(["assessor_id", "assessment_date"]).execute();
  await db.schema.createIndex("hrw_assessments_candidate").on("hrw_assessments").columns(["candidate_id", "assessment_date"]).execute();

  await db.schema
    .createTable("hrw_assessment_parts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("assessment_id", "text", (c) => c.notNull().references("hrw_assessments.id"))
    .addColumn("part", "text", (c) => c.notNull())
    .addColumn("result", "text", (c) => c.notNull())
    .addColumn("assessed_on", "text", (c) => c.notNull())
    .addColumn("recorded_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("recorded_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("hrw_assessment_parts_assessment").on("hrw_assessment_parts").columns(["assessment_id", "part", "recorded_at"]).execute();

  await db.schema
    .createTable("hrw_reminders")
    .addColumn("assessment_id", "text", (c) => c.notNull().references("hrw_assessments.id"))
    .addColumn("days_before", "integer", (c) => c.notNull())
    .addColumn("claimed_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .addPrimaryKeyConstraint("hrw_reminders_pk", ["assessment_id", "days_before"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["hrw_reminders", "hrw_assessment_parts", "hrw_assessments", "hrw_candidate_checks", "hrw_accreditations", "hrw_assessors", "hrw_state_rules"]) {
    await db.schema.dropTable(table).execute();
  }
  await sql`alter table courses drop column licence_prerequisites`.execute(db);
  await sql`alter table courses drop column licence_class`.execute(db);
}
