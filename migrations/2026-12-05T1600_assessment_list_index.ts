import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The trainers' assessment list, newest first, searched by a learner's name: the page's ids are
 * found by walking the list's order and keeping the assessments whose learner (or course)
 * matched. assessments_newest_idx (2026-11-26T0820) held the order and the id, so each
 * assessment walked past was read from the table for its learner: 14,000 rows for page 20 of
 * "nguyen" at a national provider's volume. This index replaces it and carries the learner, the
 * course and the date the order is made of (an index-only scan needs the column an indexed
 * expression reads), so the walk reads no row. SQLite has no INCLUDE: they are key columns there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`create index assessments_list_idx on assessments ((substr(assessment_date, 1, 10)) desc, created_at desc, id) include (assessment_date, student_id, course_id)`.execute(db);
  } else {
    await sql`create index assessments_list_idx on assessments ((substr(assessment_date, 1, 10)) desc, created_at desc, id, student_id, course_id)`.execute(db);
  }
  await sql`drop index if exists assessments_newest_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index assessments_newest_idx on assessments ((substr(assessment_date, 1, 10)) desc, created_at desc, id)`.execute(db);
  await sql`drop index if exists assessments_list_idx`.execute(db);
}
