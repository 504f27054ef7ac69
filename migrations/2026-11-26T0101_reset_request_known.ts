import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Whether a password reset request came from a client that had signed in to the account: the
 * per-email cap counts only the others, so strangers cannot use up the owner's requests.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table password_reset_requests add column known integer not null default 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table password_reset_requests drop column known`.execute(db);
}
