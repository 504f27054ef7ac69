import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * invoice_sums holds the office's finance totals summed per issue date, due date and the three
 * facts an invoice's status is decided by on any day: credited in full (total above 0 and
 * credited up to it), paid in full, and nothing paid yet. Whether an unpaid invoice is overdue
 * or still owed moves with the date, so it is decided when the page is read, from due_date.
 * Summing every invoice a filter kept read 1,500,000 rows per view at a national provider's
 * volume (0.5-1.3 s); these rows number a few per issue day.
 *
 * Triggers on invoices keep it inside the writing statement. The national seed loads without
 * triggers and calls `recountInvoiceSums` afterwards.
 */

const FLAGS = (row: string) => ({
  credited: `(case when ${row}.total_cents > 0 and ${row}.credited_cents >= ${row}.total_cents then 1 else 0 end)`,
  paid: `(case when ${row}.paid_cents >= ${row}.total_cents then 1 else 0 end)`,
  unpaid: `(case when ${row}.paid_cents = 0 then 1 else 0 end)`,
});

/**
 * Adds (sign 1) or takes away (sign -1) one invoice's figures: a statement for a trigger.
 * SQLite's names the existing row's columns bare: an alias of the target inside a trigger makes
 * SQLite refuse every later ALTER TABLE ... RENAME in the database.
 */
function change(row: "old" | "new", sign: 1 | -1, postgres: boolean): string {
  const f = FLAGS(row);
  const kept = postgres ? "s." : "";
  return `insert into invoice_sums${postgres ? " as s" : ""} (issue_date, due_date, credited, paid, unpaid, n, total_cents, paid_cents, credited_cents)
    values (${row}.issue_date, ${row}.due_date, ${f.credited}, ${f.paid}, ${f.unpaid}, ${sign}, ${sign} * ${row}.total_cents, ${sign} * ${row}.paid_cents, ${sign} * ${row}.credited_cents)
    on conflict (issue_date, due_date, credited, paid, unpaid) do update set
      n = ${kept}n + excluded.n, total_cents = ${kept}total_cents + excluded.total_cents,
      paid_cents = ${kept}paid_cents + excluded.paid_cents, credited_cents = ${kept}credited_cents + excluded.credited_cents`;
}

/** Every invoice's figures as they stand (the migration, and the national seed after its load). */
export async function recountInvoiceSums(db: Kysely<any>): Promise<void> {
  const f = FLAGS("i");
  await sql`delete from invoice_sums`.execute(db);
  await sql
    .raw(
      `insert into invoice_sums (issue_date, due_date, credited, paid, unpaid, n, total_cents, paid_cents, credited_cents)
      select issue_date, due_date, ${f.credited}, ${f.paid}, ${f.unpaid}, count(*), sum(total_cents), sum(paid_cents), sum(credited_cents)
      from invoices i group by issue_date, due_date, ${f.credited}, ${f.paid}, ${f.unpaid}`,
    )
    .execute(db);
}

const COLUMNS = "issue_date, due_date, total_cents, paid_cents, credited_cents";
const CHANGED = COLUMNS.split(", ")
  .map((c) => `old.${c} is not new.${c}`)
  .join(" or ");

const SQLITE_TRIGGERS: Record<string, string> = {
  invoice_sums_ai: `after insert on invoices begin ${change("new", 1, false)}; end`,
  invoice_sums_au: `after update of ${COLUMNS} on invoices when ${CHANGED} begin ${change("old", -1, false)}; ${change("new", 1, false)}; end`,
  invoice_sums_ad: `after delete on invoices begin ${change("old", -1, false)}; end`,
};

const PG_BODY = `
  begin
    if tg_op = 'UPDATE' and (${COLUMNS.split(", ")
      .map((c) => `old.${c} is not distinct from new.${c}`)
      .join(" and ")}) then
      return null;
    end if;
    if tg_op <> 'INSERT' then
      ${change("old", -1, true)};
    end if;
    if tg_op <> 'DELETE' then
      ${change("new", 1, true)};
    end if;
    return null;
  end`;

export async function up(db: Kysely<any>): Promise<void> {
  // totals in cents summed over a national provider's years pass 2^31: bigint on PostgreSQL
  // (SQLite's integers are 64-bit already)
  await sql`create table invoice_sums (
    issue_date text not null,
    due_date text not null,
    credited integer not null,
    paid integer not null,
    unpaid integer not null,
    n integer not null,
    total_cents bigint not null,
    paid_cents bigint not null,
    credited_cents bigint not null,
    primary key (issue_date, due_date, credited, paid, unpaid)
  )`.execute(db);
  await recountInvoiceSums(db);
  if (dialectOf(db) === "postgres") {
    await sql.raw(`create function invoice_sums_kept() returns trigger language plpgsql as $$ ${PG_BODY} $$`).execute(db);
    await sql.raw(`create trigger invoice_sums_kept after insert or delete or update of ${COLUMNS} on invoices for each row execute function invoice_sums_kept()`).execute(db);
    return;
  }
  for (const [name, body] of Object.entries(SQLITE_TRIGGERS)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists invoice_sums_kept on invoices`.execute(db);
    await sql`drop function if exists invoice_sums_kept()`.execute(db);
  } else {
    for (const name of Object.keys(SQLITE_TRIGGERS)) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
  await sql`drop table if exists invoice_sums`.execute(db);
}
