import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Trainer credentials and currency, and the validation of each course (docs/decisions/030).
 *
 * - trainer_credentials: a trainer's training and assessment credential (a code from the
 *   portal's list, such as TAE40122) or `under_direction` of a named supervisor, who must hold a
 *   credential themselves on the day it is relied on. issued_on..expires_on (null: no expiry).
 * - trainer_units: the vocational competency in one unit (held, or equivalent with its evidence
 *   described); one row per trainer and unit, replaced when recorded again.
 * - trainer_activities: industry currency and professional development (date, hours, what);
 *   confirmed by an administrator (confirmed_at/by).
 * - course_validations: each course's risk rating and its last and next validation days.
 * - validation_plans, validation_validators, validation_samples: a plan names the course, date
 *   and validators; the sample (drawn once, from `seed` over the completed assessments on record
 *   at `sampled_at`, none assessed by a validator, kept as `population_ids` so the draw can be
 *   rerun) holds one finding per item.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("trainer_credentials")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("trainer_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("credential", "text", (c) => c.notNull())
    .addColumn("supervisor_id", "text", (c) => c.references("users.id"))
    .addColumn("issued_on", "text", (c) => c.notNull())
    .addColumn("expires_on", "text")
    .addColumn("note", "text")
    .addColumn("recorded_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("recorded_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("trainer_credentials_trainer").on("trainer_credentials").columns(["trainer_id", "issued_on"]).execute();

  await db.schema
    .createTable("trainer_units")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("trainer_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("unit_code", "text", (c) => c.notNull())
    .addColumn("basis", "text", (c) => c.notNull())
    .addColumn("evidence", "text")
    .addColumn("expires_on", "text")
    .addColumn("recorded_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("recorded_at", "text", (c) => c.notNull())
    .addUniqueConstraint("trainer_units_one_per_unit", ["trainer_id", "unit_code"])
    .execute();
  await db.schema.createIndex("trainer_units_unit").on("trainer_units").columns(["unit_code"]).execute();

  await db.schema
    .createTable("trainer_activities")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("trainer_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("activity_date", "text", (c) => c.notNull())
    .addColumn("minutes", "integer", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("evidence", "text")
    .addColumn("recorded_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("recorded_at", "text", (c) => c.notNull())
    .addColumn("confirmed_by", "text", (c) => c.references("users.id"))
    .addColumn("confirmed_at", "text")
    .execute();
  await db.schema.createIndex("trainer_activities_trainer").on("trainer_activities").columns(["trainer_id", "activity_date"]).execute();

  await db.schema
    .createTable("course_validations")
    .addColumn("course_id", "text", (c) => c.primaryKey().references("courses.id"))
    .addColumn("risk_rating", "text", (c) => c.notNull())
    .addColumn("last_validated_on", "text")
    .addColumn("next_due_on", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.references("users.id"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("validation_plans")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("course_id", "text", (c) => c.notNull().references("courses.id"))
    .addColumn("planned_on", "text", (c) => c.notNull())
    .addColumn("sample_size", "integer", (c) => c.notNull())
    .addColumn("seed", "integer")
    .addColumn("sampled_at", "text")
    .addColumn("population", "integer")
    .addColumn("population_ids", "text")
    .addColumn("completed_at", "text")
    .addColumn("summary", "text")
    .addColumn("created_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("validation_plans_course").on("validation_plans").columns(["course_id", "planned_on"]).execute();
  await db.schema
    .createTable("validation_validators")
    .addColumn("plan_id", "text", (c) => c.notNull().references("validation_plans.id"))
    .addColumn("validator_id", "text", (c) => c.notNull().references("users.id"))
    .addPrimaryKeyConstraint("validation_validators_pk", ["plan_id", "validator_id"])
    .execute();
  await db.schema
    .createTable("validation_samples")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("plan_id", "text", (c) => c.notNull().references("validation_plans.id"))
    .addColumn("assessment_id", "text", (c) => c.notNull().references("assessments.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("outcome", "text")
    .addColumn("finding", "text")
    .addColumn("action", "text")
    .addColumn("recorded_by", "text", (c) => c.references("users.id"))
    .addColumn("recorded_at", "text")
    .addUniqueConstraint("validation_samples_once", ["plan_id", "assessment_id"])
    .execute();
  await db.schema.createIndex("validation_samples_plan").on("validation_samples").columns(["plan_id", "position"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["validation_samples", "validation_validators", "validation_plans", "course_validations", "trainer_activities", "trainer_units", "trainer_credentials"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
