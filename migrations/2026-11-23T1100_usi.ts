import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The Unique Student Identifier on every user, and who verified it against the USI Registry
 * and when (both cleared whenever the USI changes). One USI belongs to one person, so it is
 * unique, except the exemption codes INDIV and INTOFF, which many learners share.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column usi text`.execute(db);
  await sql`alter table users add column usi_verified_at text`.execute(db);
  await sql`alter table users add column usi_verified_by text references users (id) on delete set null`.execute(db);
  await sql`create unique index users_usi_unique on users (usi) where usi is not null and usi not in ('INDIV', 'INTOFF')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists users_usi_unique`.execute(db);
  await sql`alter table users drop column usi_verified_by`.execute(db);
  await sql`alter table users drop column usi_verified_at`.execute(db);
  await sql`alter table users drop column usi`.execute(db);
}
