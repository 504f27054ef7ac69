import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * enrollment_hours holds, per hour of UTC and tier, how many enrolments were made in that hour
 * and how many were completed in it: the reports page's charts (enrolments and completions per
 * month of the organisation's year, completions per tier). Counting them from enrollments read
 * 1,450,000 index entries per view at a national provider's volume (1.0-1.3 s); a year of these
 * rows is at most 8,760 x 3. An hour is the ISO instant's first 13 characters
 * ("2026-03-01T13"): the organisation's months begin on whole hours of UTC (Sydney is 10 or 11
 * hours ahead), so a month is a range of hours.
 *
 * Triggers on enrollments keep it inside the writing statement; a course moving to another tier
 * moves its counts with it. The national seed loads without triggers and calls
 * `recountEnrollmentHours` afterwards.
 */

const HOUR = (column: string) => `substr(${column}, 1, 13)`;
const COMPLETED = (row: string) => `(${row}.status = 'completed' and ${row}.completion_date is not null)`;

/** A course's enrolments and completions per hour, as rows (hour, enrolled, completed). */
const PER_HOUR_OF_COURSE = (course: string) => `
  select hour, sum(enrolled) as enrolled, sum(completed) as completed from (
    select ${HOUR("e.enrollment_date")} as hour, 1 as enrolled, 0 as completed from enrollments e where e.course_id = ${course}
    union all
    select ${HOUR("e.completion_date")}, 0, 1 from enrollments e where e.course_id = ${course} and ${COMPLETED("e")}
  ) per_enrolment where true group by hour`;

/**
 * Adds (sign 1) or takes away (sign -1) a course's counts under a tier. SQLite's statement names
 * the existing row's columns bare: an alias of the target inside a trigger makes SQLite refuse
 * every later ALTER TABLE ... RENAME in the database ("no such column: h.enrolled").
 */
const MOVE_COURSE = (course: string, tier: string, sign: 1 | -1, postgres: boolean) => {
  const row = postgres ? "h." : "";
  return `
  insert into enrollment_hours${postgres ? " as h" : ""} (hour, tier, enrolled, completed)
  select hour, ${tier}, ${sign} * enrolled, ${sign} * completed from (${PER_HOUR_OF_COURSE(course)}) moved where true
  on conflict (hour, tier) do update set enrolled = ${row}enrolled + excluded.enrolled, completed = ${row}completed + excluded.completed`;
};

/** Every hour's counts, from the enrolments as they stand (the migration, and the national seed after its load). */
export const RECOUNT_ENROLLMENT_HOURS = `
  insert into enrollment_hours (hour, tier, enrolled, completed)
  select hour, tier, sum(enrolled), sum(completed) from (
    select ${HOUR("e.enrollment_date")} as hour, c.tier, 1 as enrolled, 0 as completed from enrollments e join courses c on c.id = e.course_id
    union all
    select ${HOUR("e.completion_date")}, c.tier, 0, 1 from enrollments e join courses c on c.id = e.course_id where ${COMPLETED("e")}
  ) per_enrolment where true group by hour, tier`;

export async function recountEnrollmentHours(db: Kysely<any>): Promise<void> {
  await sql`delete from enrollment_hours`.execute(db);
  await sql.raw(RECOUNT_ENROLLMENT_HOURS).execute(db);
}

/** One enrolment's counts, added (`new`) or taken away (`old`): SQLite's trigger statements. */
function sqliteCounts(row: "old" | "new"): string {
  const tier = `(select tier from courses where id = ${row}.course_id)`;
  if (row === "new") {
    return `
      insert into enrollment_hours (hour, tier, enrolled, completed) select ${HOUR("new.enrollment_date")}, ${tier}, 1, 0 where ${tier} is not null
        on conflict (hour, tier) do update set enrolled = enrolled + 1;
      insert into enrollment_hours (hour, tier, enrolled, completed) select ${HOUR("new.completion_date")}, ${tier}, 0, 1 where ${tier} is not null and ${COMPLETED("new")}
        on conflict (hour, tier) do update set completed = completed + 1;`;
  }
  return `
      update enrollment_hours set enrolled = enrolled - 1 where hour = ${HOUR("old.enrollment_date")} and tier = ${tier};
      update enrollment_hours set completed = completed - 1 where ${COMPLETED("old")} and hour = ${HOUR("old.completion_date")} and tier = ${tier};`;
}

const CHANGED = `old.enrollment_date is not new.enrollment_date or old.completion_date is not new.completion_date or old.status is not new.status or old.course_id is not new.course_id`;

const SQLITE_TRIGGERS: Record<string, string> = {
  enrollment_hours_ai: `after insert on enrollments begin ${sqliteCounts("new")} end`,
  enrollment_hours_au: `after update of enrollment_date, completion_date, status, course_id on enrollments when ${CHANGED} begin ${sqliteCounts("old")} ${sqliteCounts("new")} end`,
  enrollment_hours_ad: `after delete on enrollments begin ${sqliteCounts("old")} end`,
  enrollment_hours_tier: `after update of tier on courses when old.tier <> new.tier begin ${MOVE_COURSE("new.id", "old.tier", -1, false)}; ${MOVE_COURSE("new.id", "new.tier", 1, false)}; end`,
};

const PG_ENROLLMENT_BODY = `
  declare
    t text;
  begin
    if tg_op = 'UPDATE' and old.enrollment_date is not distinct from new.enrollment_date and old.completion_date is not distinct from new.completion_date
      and old.status is not distinct from new.status and old.course_id is not distinct from new.course_id then
      return null;
    end if;
    if tg_op <> 'INSERT' then
      select tier into t from courses where id = old.course_id;
      update enrollment_hours set enrolled = enrolled - 1 where hour = ${HOUR("old.enrollment_date")} and tier = t;
      if ${COMPLETED("old")} then
        update enrollment_hours set completed = completed - 1 where hour = ${HOUR("old.completion_date")} and tier = t;
      end if;
    end if;
    if tg_op <> 'DELETE' then
      select tier into t from courses where id = new.course_id;
      if t is not null then
        insert into enrollment_hours as h (hour, tier, enrolled, completed) values (${HOUR("new.enrollment_date")}, t, 1, 0)
          on conflict (hour, tier) do update set enrolled = h.enrolled + 1;
        if ${COMPLETED("new")} then
          insert into enrollment_hours as h (hour, tier, enrolled, completed) values (${HOUR("new.completion_date")}, t, 0, 1)
            on conflict (hour, tier) do update set completed = h.completed + 1;
        end if;
      end if;
    end if;
    return null;
  end`;

const PG_TIER_BODY = `
  begin
    if old.tier <> new.tier then
      ${MOVE_COURSE("new.id", "old.tier", -1, true)};
      ${MOVE_COURSE("new.id", "new.tier", 1, true)};
    end if;
    return null;
  end`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table enrollment_hours (
    hour text not null,
    tier text not null,
    enrolled integer not null default 0,
    completed integer not null default 0,
    primary key (hour, tier)
  )`.execute(db);
  await sql.raw(RECOUNT_ENROLLMENT_HOURS).execute(db);
  if (dialectOf(db) === "postgres") {
    await sql.raw(`create function enrollment_hours_kept() returns trigger language plpgsql as $$ ${PG_ENROLLMENT_BODY} $$`).execute(db);
    await sql`create trigger enrollment_hours_kept after insert or delete or update of enrollment_date, completion_date, status, course_id on enrollments for each row execute function enrollment_hours_kept()`.execute(db);
    await sql.raw(`create function enrollment_hours_tier() returns trigger language plpgsql as $$ ${PG_TIER_BODY} $$`).execute(db);
    await sql`create trigger enrollment_hours_tier after update of tier on courses for each row execute function enrollment_hours_tier()`.execute(db);
    return;
  }
  for (const [name, body] of Object.entries(SQLITE_TRIGGERS)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists enrollment_hours_kept on enrollments`.execute(db);
    await sql`drop trigger if exists enrollment_hours_tier on courses`.execute(db);
    await sql`drop function if exists enrollment_hours_kept()`.execute(db);
    await sql`drop function if exists enrollment_hours_tier()`.execute(db);
  } else {
    for (const name of Object.keys(SQLITE_TRIGGERS)) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`drop table if exists enrollment_hours`.execute(db);
}
