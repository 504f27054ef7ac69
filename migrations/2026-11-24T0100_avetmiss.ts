import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * What the annual AVETMISS (NCVER) report needs that the portal did not hold:
 * - users: the student number (the NAT client identifier: unique, never reused) and the
 *   learner's AVETMISS details (codes, null while not stated; address parts at the widths of
 *   their NAT fields; disability and prior-education types as JSON lists of codes). Every
 *   existing student gets a number here, in the order they joined;
 * - counters: the last number handed out, so a number is never given twice even if its
 *   student is removed;
 * - courses: the unit's 6-digit field of education code and its VET flag (nominal hours are
 *   the course's duration);
 * - delivery_locations, and the location of every enrolment. Existing enrolments get the
 *   first location, made here when none exists (its postcode is left for an administrator).
 */

const USER_COLUMNS = [
  "sex",
  "address_building",
  "address_unit",
  "address_street_number",
  "address_street_name",
  "suburb",
  "postcode",
  "state",
  "country_of_birth",
  "language_at_home",
  "indigenous_status",
  "labour_force_status",
  "highest_school_level",
  "at_school",
  "disability",
  "disability_types",
  "prior_education",
  "prior_education_types",
  "survey_contact_status",
] as const;

const studentNumber = (n: number) => `S${String(n).padStart(6, "0")}`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column student_number text`.execute(db);
  for (const column of USER_COLUMNS) await sql`alter table users add column ${sql.id(column)} text`.execute(db);
  await sql`create unique index users_student_number_unique on users (student_number) where student_number is not null`.execute(db);
  await sql`create table counters (name text primary key, last_value integer not null check (last_value >= 0))`.execute(db);

  const students = await db.selectFrom("users").select("id").where("role", "=", "student").orderBy("created_at").orderBy("id").execute();
  let n = 0;
  for (const s of students) {
    await db.updateTable("users").set({ student_number: studentNumber(++n) }).where("id", "=", s.id).execute();
  }
  await db.insertInto("counters").values({ name: "student_number", last_value: n }).execute();

  await sql`alter table courses add column field_of_education text`.execute(db);
  await sql`alter table courses add column vet_flag integer not null default 1 check (vet_flag in (0, 1))`.execute(db);

  await sql`
    create table delivery_locations (
      id text primary key,
      identifier text not null,
      name text not null,
      suburb text,
      postcode text,
      state text,
      country text not null default '1101',
      created_at text not null,
      updated_at text not null
    )`.execute(db);
  await sql`create unique index delivery_locations_identifier_unique on delivery_locations (identifier)`.execute(db);
  await sql`alter table enrollments add column location_id text references delivery_locations (id)`.execute(db);

  const enrolled = await db.selectFrom("enrollments").select("id").limit(1).executeTakeFirst();
  if (enrolled) {
    const now = new Date().toISOString();
    const id = crypto.randomUUID();
    await db
      .insertInto("delivery_locations")
      .values({ id, identifier: "MAIN", name: "Main training site", suburb: null, postcode: null, state: null, country: "1101", created_at: now, updated_at: now })
      .execute();
    await db.updateTable("enrollments").set({ location_id: id }).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table enrollments drop column location_id`.execute(db);
  await sql`drop table if exists delivery_locations`.execute(db);
  await sql`alter table courses drop column vet_flag`.execute(db);
  await sql`alter table courses drop column field_of_education`.execute(db);
  await sql`drop table if exists counters`.execute(db);
  await sql`drop index if exists users_student_number_unique`.execute(db);
  for (const column of [...USER_COLUMNS].reverse()) await sql`alter table users drop column ${sql.id(column)}`.execute(db);
  await sql`alter table users drop column student_number`.execute(db);
}
