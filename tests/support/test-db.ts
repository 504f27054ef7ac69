import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { openDatabase, type DB } from "../../db/connection";
import { migrateToLatest } from "../../db/migrate";
import { seedDemoData } from "../../db/seed";

const TMP = path.resolve("tests/.tmp");

/**
 * A fresh, migrated SQLite file for one test file (never a mock). `seed` adds the demo data.
 * Call `cleanup` in afterAll.
 */
export async function createTestDb(options: { seed?: boolean } = {}): Promise<{ db: DB; file: string; cleanup: () => Promise<void> }> {
  fs.mkdirSync(TMP, { recursive: true });
  const file = path.join(TMP, `unit-${crypto.randomUUID()}.db`);
  const db = openDatabase(`file:${file}`);
  await migrateToLatest(db);
  if (options.seed) await seedDemoData(db);
  return {
    db,
    file,
    cleanup: async () => {
      await db.destroy();
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
    },
  };
}

/** Points the app's singleton (getDb) at a test database, for code that reads it. */
export function useAsAppDb(db: DB): void {
  globalThis.__portalDb = db;
}
