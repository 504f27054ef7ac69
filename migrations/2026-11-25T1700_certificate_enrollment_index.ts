import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Certificates by enrolment, whatever their state. The only index on enrollment_id was the
 * partial one that keeps one current certificate per enrolment (replaced_at is null), which a
 * lookup that does not say replaced_at is null cannot use: the triggers that keep
 * enrollments.has_certificate, and the foreign-key check when an enrolment is deleted, read
 * every certificate instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("certificates_enrollment_idx").on("certificates").column("enrollment_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("certificates_enrollment_idx").execute();
}
