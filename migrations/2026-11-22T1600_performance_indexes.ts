import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Indexes found with EXPLAIN QUERY PLAN on the large data set (npm run seed:large):
 * - enrollments (student_id, status): "my students" EXISTS probes and a student's counters
 *   read the index alone instead of every enrolment row;
 * - enrollments (course_id, status): per-course and per-tier figures (dashboard, reports)
 *   aggregate the index alone;
 * - assessments (enrollment_id, day desc, created_at desc): "latest assessment of an
 *   enrolment" (latestAssessmentOrder) is one index seek instead of a sort per enrolment;
 * - users (role, is_active, lower(full_name), id): the trainer's student list walks names
 *   in order and stops at the page instead of sorting every student;
 * - users (role, full_name, email): the admin student search scans a narrow covering index
 *   instead of whole user rows.
 * Expression indexes are written as raw SQL; both SQLite and PostgreSQL accept them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("enrollments_student_status_idx").on("enrollments").columns(["student_id", "status"]).execute();
  await db.schema.createIndex("enrollments_course_status_idx").on("enrollments").columns(["course_id", "status"]).execute();
  await sql`create index assessments_enrollment_latest_idx on assessments (enrollment_id, (substr(assessment_date, 1, 10)) desc, created_at desc)`.execute(db);
  await sql`create index users_role_active_name_idx on users (role, is_active, (lower(full_name)), id)`.execute(db);
  await db.schema.createIndex("users_role_search_idx").on("users").columns(["role", "full_name", "email"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    "users_role_search_idx",
    "users_role_active_name_idx",
    "assessments_enrollment_latest_idx",
    "enrollments_course_status_idx",
    "enrollments_student_status_idx",
  ]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
