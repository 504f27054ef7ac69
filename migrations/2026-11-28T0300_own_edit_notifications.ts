import { sql, type Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * A person's own edits to their contact or enrolment details are no news to them: they are no
 * longer written as notifications (the audit trail keeps the change), and the ones written
 * before are removed, so they stop pushing the notices that matter (certificates, results) off
 * the first page. They are told apart by their type and by the person being their own actor;
 * an edit by the office (student.updated) stays.
 *
 * down() cannot bring them back: nothing else recorded them as notifications.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from events where type = 'profile.updated' and actor_id = subject_user_id`.execute(db);
}

export async function down(_db: Kysely<any>): Promise<void> {}
