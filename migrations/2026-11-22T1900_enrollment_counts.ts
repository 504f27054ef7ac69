import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * enrollment_counts holds how many enrolments each course has in each status. The
 * administrator's dashboard and reports sum these few hundred rows instead of grouping every
 * enrolment (~18 ms on 100,000 enrolments, well under 1 ms now). Triggers on enrollments keep
 * it exact inside the writing statement, whatever writes (see 2026-11-22T1800). A count that
 * reaches zero keeps its row; sums are unaffected. On PostgreSQL the three triggers are one
 * PL/pgSQL function with the same statements.
 */

const TRIGGERS: Record<string, string> = {
  enrollment_counts_ai: `after insert on enrollments begin
    insert into enrollment_counts (course_id, status, n) values (new.course_id, new.status, 1)
      on conflict (course_id, status) do update set n = n + 1;
  end`,
  enrollment_counts_au: `after update of course_id, status on enrollments begin
    update enrollment_counts set n = n - 1 where course_id = old.course_id and status = old.status;
    insert into enrollment_counts (course_id, status, n) values (new.course_id, new.status, 1)
      on conflict (course_id, status) do update set n = n + 1;
  end`,
  enrollment_counts_ad: `after delete on enrollments begin
    update enrollment_counts set n = n - 1 where course_id = old.course_id and status = old.status;
  end`,
};

const PG_TRIGGER_BODY = `
  if tg_op <> 'INSERT' then
    update enrollment_counts set n = n - 1 where course_id = old.course_id and status = old.status;
  end if;
  if tg_op <> 'DELETE' then
    insert into enrollment_counts as c (course_id, status, n) values (new.course_id, new.status, 1)
      on conflict (course_id, status) do update set n = c.n + 1;
  end if;
  return null;`;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await sql`
    create table enrollment_counts (
      course_id text not null references courses (id) on delete cascade,
      status text not null,
      n integer not null check (n >= 0),
      primary key (course_id, status)
    ) ${sql.raw(postgres ? "" : "without rowid")}`.execute(db);
  await sql`insert into enrollment_counts (course_id, status, n) select course_id, status, count(*) from enrollments group by course_id, status`.execute(db);
  if (postgres) {
    await sql.raw(`create function enrollment_counts_kept() returns trigger language plpgsql as $$ begin ${PG_TRIGGER_BODY} end $$`).execute(db);
    await sql`create trigger enrollment_counts_kept after insert or delete or update of course_id, status on enrollments for each row execute function enrollment_counts_kept()`.execute(db);
    return;
  }
  for (const [name, body] of Object.entries(TRIGGERS)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists enrollment_counts_kept on enrollments`.execute(db);
    await sql`drop function if exists enrollment_counts_kept()`.execute(db);
  } else {
    for (const name of Object.keys(TRIGGERS)) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`drop table if exists enrollment_counts`.execute(db);
}
