import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Indexes that keep every page within its time at 20,000 students and 100,000 enrolments
 * (docs/decisions/015-page-speed-at-size.md):
 * - the assessments list reads newest first (assessment day, then when recorded, then id), in
 *   all and per status; read in index order, a page stops after its rows instead of sorting
 *   every assessment. A search keeps the assessments of the students and courses it names, by
 *   their ids (there was no index on the course's).
 * - the student lists of the record checks (no date of birth, contact details missing, a USI
 *   someone else holds), newest first: partial indexes hold only the students each one lists,
 *   so the reports page counts them and the students page lists them without reading every
 *   student's row. Their conditions are the ones the student list states, word for word
 *   (SQLite uses a partial index only then). Newest first puts NULLs last, as the models say.
 * - the reports page's charts count one year's enrolments by month (an index on the enrolment
 *   date, instead of reading every enrolment) and its completions by course (the status and
 *   completion date index also holds the course, so the count never reads the enrolment rows).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const created = dialectOf(db) === "postgres" ? sql.raw("created_at desc nulls last") : sql.raw("created_at desc");
  await sql`create index assessments_newest_idx on assessments ((substr(assessment_date, 1, 10)) desc, created_at desc, id)`.execute(db);
  await sql`create index assessments_status_newest_idx on assessments (status, (substr(assessment_date, 1, 10)) desc, created_at desc, id)`.execute(db);
  await db.schema.createIndex("enrollments_date_idx").on("enrollments").column("enrollment_date").execute();
  await db.schema.dropIndex("enrollments_status_idx").execute();
  await db.schema.createIndex("enrollments_status_idx").on("enrollments").columns(["status", "completion_date", "course_id"]).execute();
  await db.schema.createIndex("assessments_course_idx").on("assessments").column("course_id").execute();
  await sql`create index users_missing_dob_idx on users (role, is_active, ${created}, id)
    where date_of_birth is null or date_of_birth = ''`.execute(db);
  await sql`create index users_missing_contact_idx on users (role, is_active, ${created}, id)
    where phone is null or phone = '' or emergency_contact is null or emergency_contact = ''`.execute(db);
  await sql`create index users_usi_clash_idx on users (role, ${created}, id) where usi_claimed is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ["users_usi_clash_idx", "users_missing_contact_idx", "users_missing_dob_idx", "assessments_course_idx", "enrollments_date_idx", "assessments_status_newest_idx", "assessments_newest_idx"]) {
    await db.schema.dropIndex(name).execute();
  }
  await db.schema.dropIndex("enrollments_status_idx").execute();
  await db.schema.createIndex("enrollments_status_idx").on("enrollments").columns(["status", "completion_date"]).execute();
}
