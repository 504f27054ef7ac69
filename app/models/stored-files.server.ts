import { sql } from "kysely";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { Database } from "#db/schema";
import type { StoredFile } from "~/files/intake.server";
import type { FileStore } from "~/files/store.server";

/**
 * Which rows name a file in the store, in one place. The store keeps a file once for every row
 * with the same bytes (the same PDF kept as a learner's White Card and as assessment evidence is
 * one file), so a file's bytes may go only when no row of any table names them any longer.
 */

type StoredFileColumn = { [T in keyof Database]: { table: T; column: keyof Database[T] & string } }[keyof Database];

/**
 * Every column that names a stored file by its SHA-256. A table that keeps a file adds its
 * column here, and every removal from the store then respects it. A column naming a stored file
 * ends in `sha256` (a test compares this list with every such column of the schema).
 */
export const STORED_FILE_COLUMNS = [
  { table: "evidence_files", column: "sha256" },
  { table: "evidence_files", column: "thumbnail_sha256" },
  { table: "files", column: "sha256" },
  { table: "trainer_activities", column: "evidence_sha256" },
] as const satisfies readonly StoredFileColumn[];

/** Of `hashes`, those some row of some table still names: one query over every column. */
export async function referencedHashes(db: DB, hashes: readonly string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const list = sql.join(hashes.map((h) => sql`${h}`));
  const selects = STORED_FILE_COLUMNS.map(
    ({ table, column }) => sql`select ${sql.ref(column)} as hash from ${sql.table(table)} where ${sql.ref(column)} in (${list})`,
  );
  const { rows } = await sql<{ hash: string }>`${sql.join(selects, sql` union `)}`.execute(db);
  return new Set(rows.map((r) => r.hash));
}

/**
 * Removes from the store each of `hashes` that no row names, after the rows that named them were
 * deleted (and committed). The check and the removal run in one write transaction: a writer
 * recording a row that names one of these files (keepStoredFiles) takes its turn before, and
 * then the check sees its row, or after, and then it finds the bytes gone and puts them back.
 * Returns the hashes removed.
 */
export async function removeUnreferenced(db: DB, store: FileStore, hashes: readonly string[]): Promise<string[]> {
  const unique = [...new Set(hashes)];
  return writeTransaction(db, async (trx) => {
    const named = await referencedHashes(trx, unique);
    const removed = unique.filter((h) => !named.has(h));
    for (const hash of removed) await store.remove(hash);
    return removed;
  });
}

/**
 * Inside the write transaction that records rows naming `files`: makes sure their bytes are in
 * the store. The bytes were put before that transaction began (an upload is not sent to the store
 * while writers wait), so a destruction that found no row naming the same bytes may have removed
 * them since; they are put again from the upload's own copy, which is still on disk.
 */
export async function keepStoredFiles(_trx: WriteTransaction, store: FileStore, files: readonly StoredFile[]): Promise<void> {
  for (const file of files) {
    if (!(await store.has(file.sha256))) await store.put(file.sha256, file.path);
    if (file.thumbnailSha256 && file.thumbnailPath && !(await store.has(file.thumbnailSha256))) await store.put(file.thumbnailSha256, file.thumbnailPath);
  }
}
