import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sqlitePathFromUrl } from "./connection";

/**
 * An online backup through SQLite's backup API: consistent even while the server writes,
 * never a file copy (which could tear a page mid-write or miss the WAL).
 */
export async function backupDatabase(databaseUrl: string, destination: string): Promise<{ file: string; pages: number }> {
  const source = sqlitePathFromUrl(databaseUrl);
  if (!fs.existsSync(source)) throw new Error(`No database at ${source}`);
  fs.mkdirSync(path.dirname(path.resolve(destination)), { recursive: true });
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    const result = await db.backup(destination);
    const copy = new SQLite(destination, { readonly: true });
    try {
      const check = copy.pragma("integrity_check", { simple: true });
      if (check !== "ok") throw new Error(`Backup failed its integrity check: ${String(check)}`);
    } finally {
      copy.close();
    }
    return { file: path.resolve(destination), pages: result.totalPages };
  } finally {
    db.close();
  }
}

export function defaultBackupPath(now = new Date()): string {
  return path.join("data", "backups", `app-${now.toISOString().replace(/[:.]/g, "-")}.db`);
}
