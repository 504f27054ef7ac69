import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * certificate_count holds how many certificates are on record: the trainers' overview figure,
 * which counted a million certificates per view at a national provider's volume (240-330 ms).
 * Triggers on certificates keep it inside the writing statement, as studying_count
 * (2026-12-05T1200) is kept.
 */

const TRIGGERS: Record<string, string> = {
  certificate_count_ai: `after insert on certificates begin update certificate_count set n = n + 1; end`,
  certificate_count_ad: `after delete on certificates begin update certificate_count set n = n - 1; end`,
};

const PG_TRIGGER_BODY = `
  begin
    update certificate_count set n = n + (case when tg_op = 'INSERT' then 1 else -1 end);
    return null;
  end`;

/** The count as the certificates stand (the migration, and the national seed after its load). */
export async function recountCertificates(db: Kysely<any>): Promise<void> {
  await sql`update certificate_count set n = (select count(*) from certificates)`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table certificate_count (id integer primary key check (id = 1), n integer not null check (n >= 0))`.execute(db);
  await sql`insert into certificate_count (id, n) values (1, 0)`.execute(db);
  await recountCertificates(db);
  if (dialectOf(db) === "postgres") {
    await sql.raw(`create function certificate_count_kept() returns trigger language plpgsql as $$ ${PG_TRIGGER_BODY} $$`).execute(db);
    await sql`create trigger certificate_count_kept after insert or delete on certificates for each row execute function certificate_count_kept()`.execute(db);
    return;
  }
  for (const [name, body] of Object.entries(TRIGGERS)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists certificate_count_kept on certificates`.execute(db);
    await sql`drop function if exists certificate_count_kept()`.execute(db);
  } else {
    for (const name of Object.keys(TRIGGERS)) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`drop table if exists certificate_count`.execute(db);
}
