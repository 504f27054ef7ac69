import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { sqlitePathFromUrl } from "./connection";
import { isPostgresUrl } from "./dialect";
import { ensureOwnerOnlyFile } from "./file-mode";
import SQLite from "./sqlite-driver";

const run = promisify(execFile);

export interface Backup {
  file: string;
  /** What was written and checked, for the operator. */
  description: string;
}

/**
 * An online, consistent backup while the server writes. SQLite: through its backup API, never a
 * file copy (which could tear a page mid-write or miss the WAL). PostgreSQL: pg_dump, which
 * reads one snapshot, in its custom format (restore with pg_restore).
 */
export async function backupDatabase(databaseUrl: string, destination: string): Promise<Backup> {
  fs.mkdirSync(path.dirname(path.resolve(destination)), { recursive: true });
  if (isPostgresUrl(databaseUrl)) return backupPostgres(databaseUrl, path.resolve(destination));
  const source = sqlitePathFromUrl(databaseUrl);
  if (!fs.existsSync(source)) throw new Error(`No database at ${source}`);
  ensureOwnerOnlyFile(path.resolve(destination));
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
    return { file: path.resolve(destination), description: `${result.totalPages} pages, integrity ok` };
  } finally {
    db.close();
  }
}

async function backupPostgres(url: string, file: string): Promise<Backup> {
  // pg_dump writes into the owner-only file rather than creating one with the default umask.
  ensureOwnerOnlyFile(file);
  try {
    await run("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, `--dbname=${url}`]);
    // pg_restore reads the archive's table of contents back: a truncated or corrupt file fails.
    const { stdout } = await run("pg_restore", ["--list", file], { maxBuffer: 64 * 1024 * 1024 });
    const tables = stdout.split("\n").filter((line) => / TABLE DATA /.test(line)).length;
    return { file, description: `pg_dump custom format, ${tables} tables; restore with pg_restore` };
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT") throw new Error("pg_dump is not installed (Debian: apt-get install postgresql-client)");
    throw new Error(`pg_dump failed: ${(e.stderr ?? e.message).trim()}`);
  }
}

export function defaultBackupPath(databaseUrl: string, now = new Date()): string {
  const extension = isPostgresUrl(databaseUrl) ? "dump" : "db";
  return path.join("data", "backups", `app-${now.toISOString().replace(/[:.]/g, "-")}.${extension}`);
}
