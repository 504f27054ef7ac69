import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The `catalogue` change counter: moves on every committed write to what the page cache's
 * pages (the landing page and the anonymous catalogue) show, and on nothing else, so a sign-in,
 * a verify lookup's count or a progress update leaves the stored pages valid (see
 * app/http/page-cache.server.ts). The catalogue shows the open courses and each course's next
 * classes with their location and seats left; a seat is held by a class's enrolments that are
 * not withdrawn and by open waitlist offers (app/models/class-seats.server.ts). So:
 * - courses, classes and delivery locations: any insert, update or delete;
 * - class waitlists: any insert, update or delete;
 * - enrolments: only those in a class (inserted, deleted, or whose class or status changes).
 *
 * On SQLite the triggers are per row; on PostgreSQL per statement, except the enrolments' which
 * are per row so they can ask whether the row is in a class.
 */

const BUMP = "update change_counters set version = version + 1 where topic = 'catalogue';";
const PG_FUNCTION = "catalogue_version_bump";
const WHOLE_TABLES = ["courses", "classes", "delivery_locations", "class_waitlist"];

/** Whether an enrolment row's write can change a class's seats (`is not` / `is distinct from` treat NULLs as values). */
const inClass = {
  insert: "new.class_id is not null",
  delete: "old.class_id is not null",
  update: (distinct: string) =>
    `(old.class_id is not null or new.class_id is not null) and (old.class_id ${distinct} new.class_id or old.status ${distinct} new.status)`,
};

const sqliteTriggers = () => [
  ...WHOLE_TABLES.flatMap((table) =>
    ["insert", "update", "delete"].map((event) => ({ name: `catalogue_version_${table}_${event}`, on: `after ${event} on ${table}` })),
  ),
  { name: "catalogue_version_enrollments_insert", on: `after insert on enrollments when ${inClass.insert}` },
  { name: "catalogue_version_enrollments_delete", on: `after delete on enrollments when ${inClass.delete}` },
  { name: "catalogue_version_enrollments_update", on: `after update of class_id, status on enrollments when ${inClass.update("is not")}` },
];

const pgTriggers = () => [
  ...WHOLE_TABLES.map((table) => ({ table, name: "catalogue_version", sql: `after insert or update or delete or truncate on ${table} for each statement` })),
  { table: "enrollments", name: "catalogue_version_insert", sql: `after insert on enrollments for each row when (${inClass.insert})` },
  { table: "enrollments", name: "catalogue_version_delete", sql: `after delete on enrollments for each row when (${inClass.delete})` },
  { table: "enrollments", name: "catalogue_version_update", sql: `after update of class_id, status on enrollments for each row when (${inClass.update("is distinct from")})` },
  { table: "enrollments", name: "catalogue_version_truncate", sql: "after truncate on enrollments for each statement" },
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into change_counters (topic, version) values ('catalogue', 0)`.execute(db);
  if (dialectOf(db) === "postgres") {
    await sql.raw(`create function ${PG_FUNCTION}() returns trigger language plpgsql as $$ begin ${BUMP} return null; end $$`).execute(db);
    for (const t of pgTriggers()) await sql.raw(`create trigger ${t.name} ${t.sql} execute function ${PG_FUNCTION}()`).execute(db);
    return;
  }
  for (const t of sqliteTriggers()) await sql.raw(`create trigger ${t.name} ${t.on} begin ${BUMP} end`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    for (const t of pgTriggers()) await sql.raw(`drop trigger if exists ${t.name} on ${t.table}`).execute(db);
    await sql.raw(`drop function if exists ${PG_FUNCTION}()`).execute(db);
  } else {
    for (const t of sqliteTriggers()) await sql.raw(`drop trigger if exists ${t.name}`).execute(db);
  }
  await sql`delete from change_counters where topic = 'catalogue'`.execute(db);
}
