import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * user_counts holds how many accounts there are of each role, active and not. The office's
 * overview and the unfiltered students list counted every student for their totals: 300-600 ms
 * at 500,000 learners on PostgreSQL, on every visit. Triggers on users keep it exact inside the
 * writing statement, whatever writes, as enrollment_counts does for enrolments (2026-11-22T1900).
 * A count that reaches zero keeps its row. On PostgreSQL the triggers are one PL/pgSQL function.
 */

const TRIGGERS: Record<string, string> = {
  user_counts_ai: `after insert on users begin
    insert into user_counts (role, is_active, n) values (new.role, new.is_active, 1)
      on conflict (role, is_active) do update set n = n + 1;
  end`,
  user_counts_au: `after update of role, is_active on users begin
    update user_counts set n = n - 1 where role = old.role and is_active = old.is_active;
    insert into user_counts (role, is_active, n) values (new.role, new.is_active, 1)
      on conflict (role, is_active) do update set n = n + 1;
  end`,
  user_counts_ad: `after delete on users begin
    update user_counts set n = n - 1 where role = old.role and is_active = old.is_active;
  end`,
};

const PG_TRIGGER_BODY = `
  if tg_op = 'UPDATE' and old.role = new.role and old.is_active = new.is_active then
    return null;
  end if;
  if tg_op <> 'INSERT' then
    update user_counts set n = n - 1 where role = old.role and is_active = old.is_active;
  end if;
  if tg_op <> 'DELETE' then
    insert into user_counts as c (role, is_active, n) values (new.role, new.is_active, 1)
      on conflict (role, is_active) do update set n = c.n + 1;
  end if;
  return null;`;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await sql`
    create table user_counts (
      role text not null,
      is_active integer not null,
      n integer not null check (n >= 0),
      primary key (role, is_active)
    ) ${sql.raw(postgres ? "" : "without rowid")}`.execute(db);
  await sql`insert into user_counts (role, is_active, n) select role, is_active, count(*) from users group by role, is_active`.execute(db);
  if (postgres) {
    await sql.raw(`create function user_counts_kept() returns trigger language plpgsql as $$ begin ${PG_TRIGGER_BODY} end $$`).execute(db);
    await sql`create trigger user_counts_kept after insert or delete or update of role, is_active on users for each row execute function user_counts_kept()`.execute(db);
    return;
  }
  for (const [name, body] of Object.entries(TRIGGERS)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists user_counts_kept on users`.execute(db);
    await sql`drop function if exists user_counts_kept()`.execute(db);
  } else {
    for (const name of Object.keys(TRIGGERS)) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`drop table if exists user_counts`.execute(db);
}
