import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * awaiting_assessor_count holds how many enrolments are waiting on their assessor
 * (enrollments.awaiting_assessor, generated from the enrolment's status and its latest
 * assessment's: 2026-11-22T1800), whoever's they are. The trainers' "Pending Assessments" figure
 * counted 330,000 index entries per view at a national provider's volume (120-450 ms); it is
 * now this number less the waiting enrolments of accounts that are not active students, which
 * are few. Triggers on enrollments keep it inside the writing statement, as studying_count
 * (2026-12-05T1200) is kept.
 */

const TRIGGERS: Record<string, string> = {
  awaiting_assessor_count_ai: `after insert on enrollments when new.awaiting_assessor = 1 begin
    update awaiting_assessor_count set n = n + 1;
  end`,
  awaiting_assessor_count_au: `after update of status, latest_assessment_status on enrollments when old.awaiting_assessor <> new.awaiting_assessor begin
    update awaiting_assessor_count set n = n + (case when new.awaiting_assessor = 1 then 1 else -1 end);
  end`,
  awaiting_assessor_count_ad: `after delete on enrollments when old.awaiting_assessor = 1 begin
    update awaiting_assessor_count set n = n - 1;
  end`,
};

const PG_TRIGGER_BODY = `
  declare
    was integer := case when tg_op = 'INSERT' then 0 else old.awaiting_assessor end;
    is_now integer := case when tg_op = 'DELETE' then 0 else new.awaiting_assessor end;
  begin
    if was <> is_now then
      update awaiting_assessor_count set n = n + is_now - was;
    end if;
    return null;
  end`;

/** The count as the enrolments stand (the migration, and the national seed after its load). */
export async function recountAwaitingAssessor(db: Kysely<any>): Promise<void> {
  await sql`update awaiting_assessor_count set n = (select count(*) from enrollments where awaiting_assessor = 1)`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await sql`create table awaiting_assessor_count (id integer primary key check (id = 1), n integer not null check (n >= 0))`.execute(db);
  await sql`insert into awaiting_assessor_count (id, n) values (1, 0)`.execute(db);
  await recountAwaitingAssessor(db);
  if (postgres) {
    await sql.raw(`create function awaiting_assessor_count_kept() returns trigger language plpgsql as $$ ${PG_TRIGGER_BODY} $$`).execute(db);
    await sql`create trigger awaiting_assessor_count_kept after insert or delete or update of status, latest_assessment_status on enrollments for each row execute function awaiting_assessor_count_kept()`.execute(db);
    return;
  }
  for (const [name, body] of Object.entries(TRIGGERS)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists awaiting_assessor_count_kept on enrollments`.execute(db);
    await sql`drop function if exists awaiting_assessor_count_kept()`.execute(db);
  } else {
    for (const name of Object.keys(TRIGGERS)) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`drop table if exists awaiting_assessor_count`.execute(db);
}
