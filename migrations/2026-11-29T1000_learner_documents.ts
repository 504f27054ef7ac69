import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * A learner's documents (White Card, photo ID, licence) are uploaded by the office and kept in
 * the evidence store under their SHA-256, like assessment evidence: the hash, the size and who
 * uploaded them join the name, type (judged from the bytes), date and description the table
 * already has. Null on a row made before documents had bytes (it is listed, not downloadable).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("files").addColumn("sha256", "text").execute();
  await db.schema.alterTable("files").addColumn("size_bytes", "integer").execute();
  await db.schema.alterTable("files").addColumn("uploaded_by", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["uploaded_by", "size_bytes", "sha256"]) {
    await db.schema.alterTable("files").dropColumn(column).execute();
  }
}
