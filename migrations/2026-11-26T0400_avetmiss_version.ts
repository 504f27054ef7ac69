import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * change_counters holds one row per topic whose version moves when the data behind it changes;
 * the topic `avetmiss` moves on every committed write to what the AVETMISS export reads:
 * enrolments, delivery locations, the units' reported columns and the learners' reported
 * columns. The reports page keeps the year's readiness summary per this version, so a sign-in
 * (sessions, users.last_login), a password change or a new account leaves it valid, and any
 * process on any server sees a change once the write commits (the counter is a row, read in
 * the same database). Triggers keep it inside the writing statement, whatever writes.
 *
 * The column lists are the ones the export read when this migration was written; a later
 * change that reads another column adds it here in a migration of its own (a test holds the
 * export's columns against these triggers). On SQLite the triggers are per row; on PostgreSQL
 * per statement, through one PL/pgSQL function.
 */

const USER_COLUMNS = [
  "student_number",
  "full_name",
  "email",
  "phone",
  "date_of_birth",
  "usi",
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
];
const ENROLLMENT_COLUMNS = [
  "student_id",
  "course_id",
  "location_id",
  "status",
  "latest_assessment_status",
  "enrollment_date",
  "completion_date",
  "updated_at",
  "planned_start_date",
  "planned_end_date",
];
const COURSE_COLUMNS = ["unit_code", "official_title", "field_of_education", "vet_flag", "duration_hours"];
const LOCATION_COLUMNS = ["identifier", "name", "suburb", "postcode", "state", "country", "created_at"];

/** Per table: whether inserts and deletes count, and which updated columns do. */
const WATCHED: Array<{ table: string; rows: boolean; columns: string[] }> = [
  { table: "enrollments", rows: true, columns: ENROLLMENT_COLUMNS },
  { table: "courses", rows: true, columns: COURSE_COLUMNS },
  { table: "delivery_locations", rows: true, columns: LOCATION_COLUMNS },
  // a new account is not reported until it enrols (the enrolment moves the version); deleting
  // one deletes its enrolments
  { table: "users", rows: false, columns: USER_COLUMNS },
];

const BUMP = "update change_counters set version = version + 1 where topic = 'avetmiss';";
const PG_FUNCTION = "avetmiss_version_bump";

const sqliteTriggers = () =>
  WATCHED.flatMap(({ table, rows, columns }) => [
    ...(rows
      ? [
          { name: `avetmiss_version_${table}_ai`, on: `after insert on ${table}` },
          { name: `avetmiss_version_${table}_ad`, on: `after delete on ${table}` },
        ]
      : []),
    { name: `avetmiss_version_${table}_au`, on: `after update of ${columns.join(", ")} on ${table}` },
  ]);

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await sql`create table change_counters (topic text primary key, version bigint not null default 0)`.execute(db);
  await sql`insert into change_counters (topic, version) values ('avetmiss', 0)`.execute(db);
  if (postgres) {
    await sql.raw(`create function ${PG_FUNCTION}() returns trigger language plpgsql as $$ begin ${BUMP} return null; end $$`).execute(db);
    for (const { table, rows, columns } of WATCHED) {
      const events = [...(rows ? ["insert", "delete", "truncate"] : []), `update of ${columns.join(", ")}`].join(" or ");
      await sql.raw(`create trigger avetmiss_version after ${events} on ${table} for each statement execute function ${PG_FUNCTION}()`).execute(db);
    }
    return;
  }
  for (const t of sqliteTriggers()) await sql.raw(`create trigger ${t.name} ${t.on} begin ${BUMP} end`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    for (const { table } of WATCHED) await sql.raw(`drop trigger if exists avetmiss_version on ${table}`).execute(db);
    await sql.raw(`drop function if exists ${PG_FUNCTION}()`).execute(db);
  } else {
    for (const t of sqliteTriggers()) await sql.raw(`drop trigger if exists ${t.name}`).execute(db);
  }
  await sql`drop table if exists change_counters`.execute(db);
}
