import fs from "node:fs";
import path from "node:path";

/** Owner read and write only: a database holds learners' personal details and password hashes. */
export const OWNER_ONLY = 0o600;

/**
 * Makes sure a database file exists readable by its owner only, before SQLite opens it. SQLite
 * gives the -wal and -shm files it creates later the mode of the database file, so they follow.
 * An older file created with the default umask is tightened as well.
 */
export function ensureOwnerOnlyFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.closeSync(fs.openSync(file, "a", OWNER_ONLY));
  for (const suffix of ["", "-wal", "-shm", "-journal"]) {
    try {
      fs.chmodSync(file + suffix, OWNER_ONLY);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}
