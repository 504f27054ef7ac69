/**
 * The SQLite driver, chosen for the Node.js line this process runs on. Everything that opens a
 * SQLite file imports it from here, never "better-sqlite3" directly.
 *
 * better-sqlite3 13 is written against Node-API 10 (Node 22 and 24): one prebuilt binary in the
 * package serves every Node release, so `npm install` compiles nothing. better-sqlite3 12 and
 * older derive their Database and Statement from node::ObjectWrap, which Node 24 changed: its
 * destructor now removes an environment cleanup hook and aborts the process ("Assertion failed:
 * (env) != nullptr" in Statement::~Statement) when the garbage collector frees a statement, which
 * happens as soon as a script or a server has prepared enough of them. Closing statements or the
 * database first does not help: the C++ object is only freed by the collector.
 *
 * Node 20 has Node-API 9 and crashes loading 13, so it keeps 12 (the optional dependency
 * better-sqlite3-node20, compiled at install) while the project still runs on Node 20.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

/** The package this process loads: 13 where Node-API 10 is there, 12 on Node 20. */
export const SQLITE_DRIVER = sqliteDriverFor(process.versions.napi);

export function sqliteDriverFor(napiVersion: string | undefined): "better-sqlite3" | "better-sqlite3-node20" {
  return Number(napiVersion) >= 10 ? "better-sqlite3" : "better-sqlite3-node20";
}

const require = createRequire(import.meta.url);

/** Where the driver's main module is, for a child process that must open SQLite the same way. */
export const SQLITE_DRIVER_PATH = resolveDriver();

function resolveDriver(): string {
  try {
    return require.resolve(SQLITE_DRIVER);
  } catch {
    throw new Error(
      `${SQLITE_DRIVER} is not installed: Node ${process.versions.node} (Node-API ${process.versions.napi}) needs it to open SQLite. ` +
        "Run npm install with this Node.js (supported: 20, 22 and 24).",
    );
  }
}

const SQLite: typeof BetterSqlite3 = require(SQLITE_DRIVER_PATH);
export default SQLite;
export type { Database as SqliteConnection, Statement as SqliteStatement } from "better-sqlite3";
