import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * A USI a learner gave themselves (registering or on their profile) that another person already
 * holds. Refusing it would tell a stranger who studies here; it is kept aside instead, for the
 * training office to resolve, and the learner's own USI stays empty until then.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column usi_claimed text`.execute(db);
  await sql`create index users_usi_claimed on users (usi_claimed) where usi_claimed is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists users_usi_claimed`.execute(db);
  await sql`alter table users drop column usi_claimed`.execute(db);
}
