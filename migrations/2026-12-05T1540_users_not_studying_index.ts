import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The accounts that are not active students (inactive learners, staff, employers): the
 * trainers' pending-assessment figure takes their waiting enrolments away from the kept count
 * (2026-12-05T1520). Found through the users' role index they were read row by row, 15,000 of
 * them at a national provider's volume (310-470 ms); this index holds their ids alone: 75-85 ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index users_not_studying_idx on users (id) where not (role = 'student' and is_active = 1)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists users_not_studying_idx`.execute(db);
}
