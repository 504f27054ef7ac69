import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Staff who enrolled before enrolling gave a student number get one now, from the same counter
 * (S and six digits, never reused), so every learner in the AVETMISS report has a client
 * identifier.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const learners = await sql<{ id: string }>`
    select id from users
    where student_number is null and id in (select student_id from enrollments)
    order by created_at, id`.execute(db);
  for (const { id } of learners.rows) {
    const next = await sql<{ last_value: number }>`
      insert into counters (name, last_value) values ('student_number', 1)
      on conflict (name) do update set last_value = counters.last_value + 1
      returning last_value`.execute(db);
    const number = `S${String(next.rows[0]!.last_value).padStart(6, "0")}`;
    await sql`update users set student_number = ${number} where id = ${id}`.execute(db);
  }
}

export async function down(): Promise<void> {
  // the numbers given stay: a student number is never taken back
}
