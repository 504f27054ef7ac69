import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Before a stored file's bytes are removed, every column naming a stored file is searched for
 * its hash (app/models/stored-files.server.ts). evidence_files.sha256 has its index; these are
 * the others, so the search reads an index, not every learner's documents and evidence.
 */
const INDEXES = [
  { name: "evidence_files_thumbnail_sha256", table: "evidence_files", column: "thumbnail_sha256" },
  { name: "files_sha256", table: "files", column: "sha256" },
  { name: "trainer_activities_evidence_sha256", table: "trainer_activities", column: "evidence_sha256" },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) await db.schema.createIndex(index.name).on(index.table).column(index.column).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) await db.schema.dropIndex(index.name).execute();
}
