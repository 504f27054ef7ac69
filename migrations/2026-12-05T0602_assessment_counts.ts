import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * assessment_counts holds how many assessments are on record in each status. The trainers'
 * assessments page grouped every assessment by status for its cards: 650 ms at 1,500,000
 * assessments on PostgreSQL, on every visit. Triggers on assessments keep it exact inside the
 * writing statement, as enrollment_counts (2026-11-22T1900) and user_counts (2026-12-05T0601)
 * are kept. A count that reaches zero keeps its row.
 */

const TRIGGERS: Record<string, string> = {
  assessment_counts_ai: `after insert on assessments begin
    insert into assessment_counts (status, n) values (new.status, 1)
      on conflict (status) do update set n = n + 1;
  end`,
  assessment_counts_au: `after update of status on assessments begin
    update assessment_counts set n = n - 1 where status = old.status;
    insert into assessment_counts (status, n) values (new.status, 1)
      on conflict (status) do update set n = n + 1;
  end`,
  assessment_counts_ad: `after delete on assessments begin
    update assessment_counts set n = n - 1 where status = old.status;
  end`,
};

const PG_TRIGGER_BODY = `
  if tg_op = 'UPDATE' and old.status = new.status then
    return null;
  end if;
  if tg_op <> 'INSERT' then
    update assessment_counts set n = n - 1 where status = old.status;
  end if;
  if tg_op <> 'DELETE' then
    insert into assessment_counts as c (status, n) values (new.status, 1)
      on conflict (status) do update set n = c.n + 1;
  end if;
  return null;`;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await sql`
    create table assessment_counts (
      status text primary key,
      n integer not null check (n >= 0)
    ) ${sql.raw(postgres ? "" : "without rowid")}`.execute(db);
  await sql`insert into assessment_counts (status, n) select status, count(*) from assessments group by status`.execute(db);
  if (postgres) {
    await sql.raw(`create function assessment_counts_kept() returns trigger language plpgsql as $$ begin ${PG_TRIGGER_BODY} end $$`).execute(db);
    await sql`create trigger assessment_counts_kept after insert or delete or update of status on assessments for each row execute function assessment_counts_kept()`.execute(db);
    return;
  }
  for (const [name, body] of Object.entries(TRIGGERS)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists assessment_counts_kept on assessments`.execute(db);
    await sql`drop function if exists assessment_counts_kept()`.execute(db);
  } else {
    for (const name of Object.keys(TRIGGERS)) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`drop table if exists assessment_counts`.execute(db);
}
