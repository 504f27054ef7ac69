import { openDatabase, type DB } from "#db/connection";
import { env } from "./env.server";
import { logLine } from "./utils/log.server";

declare global {
  var __portalDb: DB | undefined;
}

/** One connection per process; survives dev-server reloads. */
export function getDb(): DB {
  globalThis.__portalDb ??= openDatabase(env().DATABASE_URL, { log: logLine });
  return globalThis.__portalDb;
}
