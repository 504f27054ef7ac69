import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql, type SqliteDatabase } from "kysely";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

/** The path of a `file:PATH` database URL, relative paths resolved against the working directory. */
export function sqlitePathFromUrl(url: string): string {
  if (!url.startsWith("file:")) {
    throw new Error(`DATABASE_URL must be file:PATH (SQLite) or postgres://… (got "${url}")`);
  }
  const p = url.slice("file:".length);
  if (!p) throw new Error("DATABASE_URL file: needs a path, e.g. file:./data/app.db");
  return p === ":memory:" ? p : path.resolve(p);
}

/**
 * Opens the database behind a URL. SQLite runs in WAL with synchronous=FULL (an
 * acknowledged write survives a crash), foreign keys on and a busy timeout so a second
 * process waits rather than failing.
 */
export function openDatabase(url: string): DB {
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    throw new Error(
      "DATABASE_URL points at PostgreSQL, which this build does not support yet; use file:PATH for SQLite.",
    );
  }
  const file = sqlitePathFromUrl(url);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; preparing is a good part of a small query's cost. The
 * app runs the same few hundred statements over and over, so keep the prepared ones (the
 * oldest is dropped past STATEMENT_CACHE_SIZE). Safe because every statement runs to
 * completion synchronously (the app never streams), and SQLite re-prepares a statement
 * itself when a migration changes the schema under it.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(source: string) {
      let statement = cache.get(source);
      if (!statement) {
        statement = sqlite.prepare(source);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(source, statement);
      }
      return statement;
    },
  };
}

const inTransaction = new WeakSet<object>();

/**
 * Runs `fn` in a write transaction. On SQLite it is BEGIN IMMEDIATE, so the write lock is
 * taken up front and two writers never deadlock upgrading read locks. Nested calls join
 * the outer transaction.
 */
export async function writeTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  if (inTransaction.has(db) || db.isTransaction) return fn(db);
  return db.connection().execute(async (conn) => {
    inTransaction.add(conn);
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn);
      throw error;
    } finally {
      inTransaction.delete(conn);
    }
  });
}
