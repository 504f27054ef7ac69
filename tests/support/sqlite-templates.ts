import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "../../db/connection";
import { migrateToLatest } from "../../db/migrate";
import { seedDemoData } from "../../app/demo/seed.server";

/**
 * The SQLite side of the run's templates, as PostgreSQL has template databases: a run migrates
 * (and seeds) two database files once; each test file then starts from a copy of one, which
 * takes a millisecond where migrating takes half a second of CPU and seeding more.
 */
export interface SqliteTemplates {
  migrated: string;
  seeded: string;
}

/** Builds the run's two template files in `dir`: the latest schema, and the schema with the demo data. */
export async function createSqliteTemplates(dir: string): Promise<SqliteTemplates> {
  fs.mkdirSync(dir, { recursive: true });
  const templates = { migrated: path.join(dir, "migrated.db"), seeded: path.join(dir, "seeded.db") };
  for (const [kind, file] of Object.entries(templates)) {
    removeDatabaseFile(file);
    const db = openDatabase(`file:${file}`);
    try {
      await migrateToLatest(db);
      if (kind === "seeded") await seedDemoData(db);
    } finally {
      // closing the last connection checkpoints the WAL into the file and removes it, so the
      // file alone is the whole database and a plain copy of it is a consistent one
      await db.destroy();
    }
    if (fs.existsSync(`${file}-wal`)) throw new Error(`the template ${file} kept its WAL after closing`);
  }
  return templates;
}

export function removeDatabaseFile(file: string): void {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
}
