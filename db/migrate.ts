import { Migrator, type MigrationProvider } from "kysely";
import { migrations } from "../migrations/index";
import { installChangeNotifications } from "./change-feed";
import type { DB } from "./connection";
import { dialectOf } from "./dialect";

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${String(error)}`, { cause: error });
  }
  if (dialectOf(db) === "postgres") await installChangeNotifications(db);
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Rolls every migration back, newest first (used by db:reset). */
export async function migrateDownAll(db: DB): Promise<void> {
  const migrator = new Migrator({ db, provider });
  for (;;) {
    const { error, results } = await migrator.migrateDown();
    if (error) throw error;
    if (!results || results.length === 0) return;
  }
}
