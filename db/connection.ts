import path from "node:path";
import { Kysely, PostgresDialect, SqliteDialect, sql, type Compilable, type InferResult, type SqliteDatabase } from "kysely";
import pg from "pg";
import Cursor from "pg-cursor";
import { listenForChanges, type ChangeFeed } from "./change-feed";
import { dialectSql, isPostgresUrl, type TurnLook } from "./dialect";
import { ensureOwnerOnlyFile } from "./file-mode";
import { COUNTING_QUERIES, noteQuery } from "./query-count";
import type { Database } from "./schema";
import SQLite, { type SqliteConnection, type SqliteStatement } from "./sqlite-driver";

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
 * Opens the database behind a URL: postgres://… for PostgreSQL, file:PATH for SQLite. SQLite
 * runs in WAL with synchronous=FULL (an acknowledged write survives a crash), foreign keys on
 * and a busy timeout so a second process waits rather than failing.
 */
export function openDatabase(url: string, options: OpenOptions = {}): DB {
  if (isPostgresUrl(url)) return openPostgres(url, options.log ?? jsonLine);
  const file = sqlitePathFromUrl(url);
  if (file !== ":memory:") ensureOwnerOnlyFile(file);
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), ...queryLog() });
  // data_version moves when another connection (another process) commits; total_changes()
  // when this one writes. Together they move on every committed write, whoever made it.
  const version = sqlite.prepare("SELECT (SELECT data_version FROM pragma_data_version) || '.' || total_changes()").pluck();
  dataVersions.set(db, () => String(version.get()));
  return db;
}

/** Each statement counted for the request that ran it, with QUERY_COUNT=1 only (db/query-count.ts). */
function queryLog(): { log?: () => void } {
  return COUNTING_QUERIES ? { log: noteQuery } : {};
}

/** What a process passes in: its log, so a lost connection is one line among its others. */
export interface OpenOptions {
  log?: ConnectionLog;
}

/** One event as a log line's fields; callers pass no secret (a connection's error has none). */
export type ConnectionLog = (fields: Record<string, unknown>) => void;

/** The log of a process that brings none (scripts): one JSON line on stdout. */
const jsonLine: ConnectionLog = (fields) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);

/**
 * Watches one PostgreSQL connection for the rest of its life. pg emits `error` on a connection
 * the server drops (a restart, a crash, "terminating connection due to administrator command")
 * and, while a pool or a caller holds it between statements, nothing else listens: unheard, the
 * event would end the process. Heard here, it is logged once per connection; the connection is
 * then unusable, its next statement fails (a 503 for the request) and the pool replaces it.
 */
export function watchConnection(client: pg.Client | pg.PoolClient, log: ConnectionLog, role: string): void {
  let logged = false;
  client.on("error", (error: Error & { code?: string }) => {
    if (logged) return;
    logged = true;
    log({ event: "database-connection-lost", connection: role, error: error.message.slice(0, 200), ...(error.code ? { code: error.code } : {}) });
  });
}

const dataVersions = new WeakMap<DB, () => string>();

/**
 * A value that changes whenever a write is committed to the database, by this process or any
 * other; what a process caches from the database is valid while it stays the same. Cheap
 * enough to read on every cache hit: on SQLite a pragma (no query on the data), on PostgreSQL
 * a counter moved by change notifications (see change-feed.ts).
 */
export function dataVersion(db: DB): string {
  const read = dataVersions.get(db);
  if (!read) throw new Error("dataVersion: not a database opened by openDatabase");
  return read();
}

/**
 * PostgreSQL types read back as SQLite gives them, so models see one shape: counts and sums
 * (bigint, numeric) as numbers, booleans (EXISTS, comparisons) as 0/1 like the 0/1 integer
 * columns. Counts here stay far below 2^53.
 */
const PG_TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    switch (oid) {
      case pg.types.builtins.INT8:
      case pg.types.builtins.NUMERIC:
        return (value: string) => Number(value);
      case pg.types.builtins.BOOL:
        return (value: string) => (value === "t" ? 1 : 0);
      default:
        return pg.types.getTypeParser(oid, format as "text");
    }
  },
};

/** Every connection's JIT setting (openPostgres says why). */
const NO_JIT = "-c jit=off";

/** How long a request waits for a pooled connection, and for one statement, before failing. */
// (3 s: a request whose database is away answers its 503 within 5 s, with its other work)
export const PG_CONNECT_TIMEOUT_MS = 3_000;
export const PG_STATEMENT_TIMEOUT_MS = 30_000;

/**
 * A pool of PostgreSQL connections. A database that is down fails a request within the connect
 * timeout, and one that stops answering within the statement timeout (the server cancels the
 * statement; the client gives up a little later if the server itself is gone), so a request
 * errors (503) instead of hanging.
 */
function openPostgres(url: string, log: ConnectionLog): DB {
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.PG_POOL_SIZE ?? 10),
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    statement_timeout: PG_STATEMENT_TIMEOUT_MS,
    // No JIT compilation: it starts on a query the planner costs high (a page's count over
    // hundreds of thousands of rows) and spends 50-100 ms compiling it, more than such a query
    // then saves. No parallel workers either: starting them took 20-40 ms of a 50 ms count at a
    // national provider's volume (the trainers' certificates due: 44-56 ms, alone 11 ms), and a
    // server's cores are already busy with the other requests. The portal's statements are
    // short; an export reads in batches.
    options: `${NO_JIT} -c max_parallel_workers_per_gather=0`,
    query_timeout: PG_STATEMENT_TIMEOUT_MS + 5_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    types: PG_TYPES,
  });
  // Every connection the pool opens is watched from its first moment, idle or lent out (the pool
  // listens only while it is idle); an idle one the server drops is also discarded by the pool,
  // which reports it here as well, already logged.
  pool.on("connect", (client) => watchConnection(client, log, "pool"));
  pool.on("error", () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...queryLog() });
  cursorClients.set(db, () => {
    // a connection of its own, without the pool's query_timeout: pg arms that timer for a
    // cursor too and, when it fires after the cursor has finished, raises an error event on
    // the closed cursor that nothing listens to
    // (an export's one statement over a year may use parallel workers: it is not a page's)
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, options: NO_JIT, keepAlive: true, types: PG_TYPES });
    watchConnection(client, log, "cursor");
    return client;
  });
  // The change feed's listening connection opens on first use (servers use it; scripts do not)
  // and closes with the pool.
  let feed: ChangeFeed | undefined;
  dataVersions.set(db, () => (feed ??= listenForChanges(url, log)).version());
  const destroy = db.destroy.bind(db);
  db.destroy = async () => {
    await feed?.close();
    await destroy();
  };
  return db;
}

const cursorClients = new WeakMap<DB, () => pg.Client>();

/** How long one statement read through a cursor may run: a year's report at a national provider's volume takes a minute. */
export const PG_CURSOR_TIMEOUT_MS = 10 * 60_000;

/**
 * The rows of one read-only statement, `batch` at a time, from a cursor on PostgreSQL: one
 * statement read as the caller asks for more, instead of a statement per batch. A walk whose
 * filter keeps few rows in some stretches of its order (a year's activities among every
 * enrolment) costs a keyset walk a second or more per such batch, and 25 s in all at 500,000
 * learners; PostgreSQL reads the statement once, its own way (3.6 s). The cursor reads one
 * snapshot (REPEATABLE READ, read only) on a connection of its own, under its own time limit,
 * and is closed when the caller stops early. Null on SQLite, whose one connection a cursor
 * would hold: its callers walk by keyset there.
 */
export function cursorBatches<Q extends Compilable<unknown>>(db: DB, query: Q, batch: number): AsyncGenerator<InferResult<Q>> | null {
  const connect = cursorClients.get(db);
  if (!connect) return null;
  const compiled = query.compile();
  return (async function* () {
    const client = connect();
    try {
      await client.connect();
      await client.query("begin isolation level repeatable read read only");
      await client.query(`set local statement_timeout = ${PG_CURSOR_TIMEOUT_MS}`);
      const cursor = client.query(new Cursor(compiled.sql, [...compiled.parameters], { types: PG_TYPES }));
      try {
        for (;;) {
          const rows = (await cursor.read(batch)) as InferResult<Q>;
          if (rows.length === 0) return;
          yield rows;
        }
      } finally {
        await cursor.close().catch(() => {});
      }
    } finally {
      // nothing was written: ending the connection ends the transaction
      await client.end().catch(() => {});
    }
  })();
}

/** Node's socket errors, and what pg says when it gives up waiting or loses its connection. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const PG_GAVE_UP = /timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error/;

/**
 * True for an error that says the database server cannot be reached or stopped answering
 * (the request gets a 503 "try again", not a 500): a refused or dropped connection, the pool's
 * connect timeout, PostgreSQL's connection-exception class (08), a server shutting down or
 * starting (57P01-57P03) or a statement cancelled by the statement timeout (57014).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (UNREACHABLE.has(code) || code.startsWith("08") || /^57P0[123]$|^57014$/.test(code))) return true;
  return PG_GAVE_UP.test(error.message) || isDatabaseUnavailable(error.cause);
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; preparing is a good part of a small query's cost. The
 * app runs the same few hundred statements over and over, so keep the prepared ones (the
 * oldest is dropped past STATEMENT_CACHE_SIZE). Safe because every statement runs to
 * completion synchronously (the app never streams), and SQLite re-prepares a statement
 * itself when a migration changes the schema under it.
 */
function withStatementCache(sqlite: SqliteConnection): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
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

declare const writeTransactionBrand: unique symbol;

/**
 * The database as writeTransaction hands it to its callback, and only so: a function that must
 * run inside the caller's write transaction (queueMail, whose message must commit or roll back
 * with the change it tells of) takes this type, and a plain DB does not satisfy it.
 */
export type WriteTransaction = DB & { readonly [writeTransactionBrand]: true };

/** What a write transaction writes just before it commits: rows gathered while it ran. */
interface CommitStep {
  items: unknown[];
  write: (trx: WriteTransaction, items: unknown[]) => Promise<void>;
}

/** An open write transaction, by its connection. */
interface OpenWrite {
  /** a scoped write's scopes (see writeTransaction); null for a write that holds the write lock */
  scopes: ReadonlySet<string> | null;
  /** whether a scoped write has taken its turn to write */
  turn: boolean;
  /** what it read as it took its turn (PostgreSQL): the audit chain's head and actors' emails */
  look: TurnLook | null;
  steps: Map<symbol, CommitStep>;
  /** statements writeLater keeps to send with the commit, once sendWritesAtCommit asked; null before */
  later: string[] | null;
  /** how many writeTransaction calls inside it are running (they joined it) */
  nested: number;
}
const openWrites = new WeakMap<object, OpenWrite>();

/**
 * The list a write transaction keeps under `key` and writes with `write` just before it commits,
 * in one go (the audit trail's entries: one read of the chain's head and one insert for all of
 * them, where each entry took two round trips while every other write waited). Null when `trx`
 * is not one writeTransaction opened (a Kysely transaction begun elsewhere): the caller writes
 * at once. A rollback drops the list with the rest.
 */
export function atCommit<T>(trx: WriteTransaction, key: symbol, write: (trx: WriteTransaction, items: T[]) => Promise<void>): T[] | null {
  const open = openWrites.get(trx);
  if (!open) return null;
  let step = open.steps.get(key);
  if (!step) {
    step = { items: [], write: write as CommitStep["write"] };
    open.steps.set(key, step);
  }
  return step.items as T[];
}

/**
 * From here the transaction's writeLater statements go to the database with its commit, in one
 * round trip, instead of one round trip each while every other write waits for its turn. The
 * caller promises that nothing it reads after this depends on them: a read would not see them,
 * and a statement run at once (one whose result is needed, such as the next invoice number)
 * must not need them. Their errors (a unique key taken, a foreign key missing) come from the
 * commit, which rolls everything back as before. Only the function that began the transaction
 * decides this: called from inside a write that joined another (a seed enrolling and then
 * reading the enrolment back), it does nothing. Only where round trips cost (PostgreSQL); on
 * SQLite writeLater runs each statement at once.
 */
export function sendWritesAtCommit(trx: WriteTransaction): void {
  const open = openWrites.get(trx);
  if (open && open.nested === 0 && !open.later && dialectSql(trx).inlineStatement) open.later = [];
}

/**
 * Runs `query` now, or, after sendWritesAtCommit, keeps it to send with the commit. For writes
 * whose result nobody reads: an event, a queued message, an invoice's lines.
 */
export async function writeLater(trx: DB, query: Compilable & { execute(): Promise<unknown> }): Promise<void> {
  const later = openWrites.get(trx)?.later;
  if (!later) {
    await query.execute();
    return;
  }
  const compiled = query.compile();
  later.push(dialectSql(trx).inlineStatement!(compiled.sql, compiled.parameters));
}

/** Whether writeLater keeps statements for the commit in this transaction (after sendWritesAtCommit). */
export function writesWaitForCommit(trx: DB): boolean {
  return Boolean(openWrites.get(trx)?.later);
}

/**
 * Sends the statements writeLater kept, now, in one round trip: for a read that needs them (a
 * webhook's payload reads the enrolment just written). Later writeLater calls keep waiting.
 */
export async function sendKeptWrites(trx: DB): Promise<void> {
  const open = openWrites.get(trx);
  if (!open?.later?.length) return;
  const statements = open.later.splice(0);
  await sql.raw(statements.join(";\n")).execute(trx);
}

/**
 * A scoped write's turn to write (see writeTransaction): from here until it commits no other
 * scoped write writes, so what it writes, and the kept counts and the audit chain its writes
 * move, meet no half-made change. Nothing in any other write transaction. `auditActors` are
 * who its audit entries name (none of whose email it changes): their emails come with the turn.
 */
export async function takeWritesTurn(trx: WriteTransaction, auditActors: readonly (string | null)[] = []): Promise<void> {
  const open = openWrites.get(trx);
  if (!open?.scopes || open.turn) return;
  open.look = await dialectSql(trx).takeWritesTurn(trx, [...new Set(auditActors.filter((id): id is string => Boolean(id)))]);
  open.turn = true;
}

/**
 * What a scoped write read as it took its turn (see TurnLook): the audit trail links its entries
 * to it instead of reading the chain's head again in the turn. Null before the turn, outside
 * writeTransaction, for a write that holds the write lock, and on SQLite.
 */
export function turnLook(trx: WriteTransaction): TurnLook | null {
  return openWrites.get(trx)?.look ?? null;
}

/**
 * Runs `fn` in a write transaction, so a check and the write it guards see the same data.
 *
 * - Without scopes, writers take turns from the start (DialectSql.beginWrite): the rule for
 *   every write whose checks read what any other write may change.
 * - With `scopes`, the transaction reads beside other scoped writes and calls takeWritesTurn
 *   before its first write: its checks may read only what its scopes cover (a learner's
 *   enrolments, a course's seats), which writes of the same scope change one at a time, and
 *   what only unscoped writes change (a course's price), which wait for every scoped write to end.
 *   The turn is taken before commit in any case. On SQLite both are its single writer.
 *
 * Nested calls join the outer transaction; one inside a scoped write that its scopes do not
 * cover takes the turn first. What `fn` left to atCommit is written last, inside the same
 * transaction, in the turn.
 */
export async function writeTransaction<T>(db: DB, fn: (trx: WriteTransaction) => Promise<T>, options: { scopes?: readonly string[] } = {}): Promise<T> {
  const outer = openWrites.get(db);
  if (outer) {
    if (outer.scopes && !options.scopes?.every((s) => outer.scopes!.has(s))) await takeWritesTurn(db as WriteTransaction);
    // a write joining this one reads what it likes: what the outer one kept for its commit goes first
    await sendKeptWrites(db);
    outer.nested++;
    try {
      return await fn(db as WriteTransaction);
    } finally {
      outer.nested--;
    }
  }
  if (db.isTransaction) return fn(db as WriteTransaction);
  return db.connection().execute(async (conn) => {
    const dialect = dialectSql(conn);
    if (options.scopes) await dialect.beginScopedWrite(conn, options.scopes);
    else await dialect.beginWrite(conn);
    const open: OpenWrite = { scopes: options.scopes ? new Set(options.scopes) : null, turn: false, look: null, steps: new Map(), later: null, nested: 0 };
    openWrites.set(conn, open);
    const trx = conn as WriteTransaction;
    try {
      const result = await fn(trx);
      await takeWritesTurn(trx);
      // nothing reads after this: what the steps write goes with the commit
      sendWritesAtCommit(trx);
      for (const step of open.steps.values()) if (step.items.length) await step.write(trx, step.items);
      await sql.raw(open.later?.length ? `${open.later.join(";\n")};\ncommit` : "commit").execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn);
      throw error;
    } finally {
      openWrites.delete(conn);
    }
  });
}
