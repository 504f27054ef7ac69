import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * A trainer's industry currency or professional development activity may carry one evidence
 * file (a certificate, a log page, a photo), kept in the evidence store under its SHA-256 like
 * assessment evidence: the hash, the type judged from its bytes, its size and the name it was
 * uploaded with. All null when the activity has no file.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("trainer_activities").addColumn("evidence_sha256", "text").execute();
  await db.schema.alterTable("trainer_activities").addColumn("evidence_media_type", "text").execute();
  await db.schema.alterTable("trainer_activities").addColumn("evidence_size_bytes", "integer").execute();
  await db.schema.alterTable("trainer_activities").addColumn("evidence_file_name", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["evidence_file_name", "evidence_size_bytes", "evidence_media_type", "evidence_sha256"]) {
    await db.schema.alterTable("trainer_activities").dropColumn(column).execute();
  }
}
