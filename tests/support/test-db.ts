import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { openDatabase, type DB } from "../../db/connection";
import { createDatabase, databaseUrl, dropDatabase, uniqueDatabaseName } from "./postgres-test-server";
import { removeDatabaseFile } from "./sqlite-templates";

const TMP = path.resolve("tests/.tmp");

/** The database the suite runs on: the postgres project sets TEST_DIALECT (see vitest.config.ts). */
export const TEST_DIALECT: "sqlite" | "postgres" = process.env.TEST_DIALECT === "postgres" ? "postgres" : "sqlite";

export interface TestDb {
  db: DB;
  /** The DATABASE_URL of this database, for code that opens its own connection. */
  url: string;
  cleanup: () => Promise<void>;
}

/**
 * A fresh, migrated database for one test file (never a mock). `seed` adds the demo data.
 * SQLite: a new file copied from the run's template file. PostgreSQL: a new database copied
 * from the run's template database. Both templates are made once per run by the project's
 * global setup (vitest.config.ts). Call `cleanup` in afterAll.
 */
export async function createTestDb(options: { seed?: boolean } = {}): Promise<TestDb> {
  if (TEST_DIALECT === "postgres") {
    const templates = inject("postgresTemplates");
    const name = uniqueDatabaseName(`portal_t${inject("postgresRun")}`);
    await createDatabase(name, options.seed ? templates.seeded : templates.migrated);
    const url = databaseUrl(name);
    const db = openDatabase(url);
    return {
      db,
      url,
      cleanup: async () => {
        await db.destroy();
        await dropDatabase(name);
      },
    };
  }
  const templates = inject("sqliteTemplates");
  fs.mkdirSync(TMP, { recursive: true });
  const file = path.join(TMP, `unit-${crypto.randomUUID()}.db`);
  fs.copyFileSync(options.seed ? templates.seeded : templates.migrated, file);
  const url = `file:${file}`;
  const db = openDatabase(url);
  return {
    db,
    url,
    cleanup: async () => {
      await db.destroy();
      removeDatabaseFile(file);
    },
  };
}

/** Points the app's singleton (getDb) at a test database, for code that reads it. */
export function useAsAppDb(db: DB): void {
  globalThis.__portalDb = db;
}
