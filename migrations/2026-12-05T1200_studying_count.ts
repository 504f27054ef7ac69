import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * studying_count holds how many active students have a current enrolment (users.current_enrollments
 * above 0, itself kept by triggers on enrollments: 2026-11-22T1800): the trainers' "my students"
 * figure and their unsearched list's total. Counting them read 400,000 index entries on every
 * view at a national provider's volume (230-500 ms). Triggers on users keep it exact inside the
 * writing statement, as user_counts (2026-12-05T0601) is kept.
 */

const STUDYING = (row: string) => `(${row}.role = 'student' and ${row}.is_active = 1 and ${row}.current_enrollments > 0)`;

const TRIGGERS: Record<string, string> = {
  studying_count_ai: `after insert on users when ${STUDYING("new")} begin
    update studying_count set n = n + 1;
  end`,
  studying_count_au: `after update of role, is_active, current_enrollments on users when ${STUDYING("old")} <> ${STUDYING("new")} begin
    update studying_count set n = n + (case when ${STUDYING("new")} then 1 else -1 end);
  end`,
  studying_count_ad: `after delete on users when ${STUDYING("old")} begin
    update studying_count set n = n - 1;
  end`,
};

const PG_TRIGGER_BODY = `
  declare
    was boolean := tg_op <> 'INSERT' and ${STUDYING("old")};
    is_now boolean := tg_op <> 'DELETE' and ${STUDYING("new")};
  begin
    if was and not is_now then
      update studying_count set n = n - 1;
    elsif is_now and not was then
      update studying_count set n = n + 1;
    end if;
    return null;
  end`;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await sql`create table studying_count (id integer primary key check (id = 1), n integer not null check (n >= 0))`.execute(db);
  await sql.raw(`insert into studying_count (id, n) select 1, count(*) from users u where ${STUDYING("u")}`).execute(db);
  if (postgres) {
    await sql.raw(`create function studying_count_kept() returns trigger language plpgsql as $$ ${PG_TRIGGER_BODY} $$`).execute(db);
    await sql`create trigger studying_count_kept after insert or delete or update of role, is_active, current_enrollments on users for each row execute function studying_count_kept()`.execute(db);
    return;
  }
  for (const [name, body] of Object.entries(TRIGGERS)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists studying_count_kept on users`.execute(db);
    await sql`drop function if exists studying_count_kept()`.execute(db);
  } else {
    for (const name of Object.keys(TRIGGERS)) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`drop table if exists studying_count`.execute(db);
}
