import { createHash } from "node:crypto";
import { inlineStatement } from "./inline-statement";
import { cleanSearchTerm } from "./search-term";
import {
  PostgresAdapter,
  sql,
  type ColumnDefinitionBuilder,
  type ColumnDataType,
  type Expression,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
} from "kysely";

/**
 * The SQL that must differ between SQLite and PostgreSQL, in one place, so models and
 * migrations stay free of `if (postgres)`: they ask `dialectSql(db)` for the fragment and get
 * the version for the database they run on. docs/decisions explains each difference.
 */

export type DialectName = "sqlite" | "postgres";

export function isPostgresUrl(url: string): boolean {
  return url.startsWith("postgres://") || url.startsWith("postgresql://");
}

/** Any database: the app's typed one, or the Kysely<any> a frozen migration is given. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration's tables are not today's Database interface
export type AnyDb = Kysely<any>;

/**
 * Which database a Kysely instance (or a transaction or connection taken from one) talks to.
 * Kysely keeps the dialect's adapter on the executor, which every derived instance shares.
 */
export function dialectOf(db: AnyDb): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

/** A LIKE pattern for "contains `term`", lower-cased; % and _ in the term match themselves. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The lock key every write transaction on PostgreSQL takes (any constant; "PORTAL" in ASCII). */
const WRITE_LOCK_KEY = 0x504f5254414c;
/** The turn a scoped write takes before it writes ("WRITES" in ASCII). */
const WRITES_TURN_KEY = 0x575249544553;

/** A scope's lock key: 64 bits of its name's SHA-256, as a literal (no parameter, no quoting). */
function scopeLockKey(scope: string): string {
  return createHash("sha256").update(`scope:${scope}`).digest().readBigInt64BE(0).toString();
}

/**
 * What a scoped write read as it took its turn: the audit chain's head and last entry, and the
 * email of each actor asked for. Only a write in its turn appends to the chain, and unscoped
 * writes (a change of email among them) wait for every scoped one, so these hold until it commits.
 */
export interface TurnLook {
  head_id: number | null;
  head_hash: string | null;
  last_entry_id: number | null;
  last_entry_hash: string | null;
  emails: Record<string, string | null>;
}

export interface DialectSql {
  readonly name: DialectName;
  /**
   * Starts a write transaction on `conn`. Writers take turns, so a read-check-write inside one
   * (a duplicate enrolment, a certificate already issued, a rate limit's count) sees every write
   * committed before it, from this process or any other server on the same database.
   */
  beginWrite(conn: AnyDb): Promise<void>;
  /**
   * Starts a scoped write transaction: it reads beside other scoped writes and takes its turn
   * to write with takeWritesTurn. `scopes` name what its checks read that another scoped write
   * could change (a learner, a course's seats); two writes sharing one take turns from the
   * start. A write begun with beginWrite waits until no scoped write is open, and those begun
   * after it wait for it. SQLite has one writer: this is beginWrite.
   */
  beginScopedWrite(conn: AnyDb, scopes: readonly string[]): Promise<void>;
  /**
   * A scoped write's turn to write: until it commits, no other scoped write writes. On
   * PostgreSQL the turn comes with what the write's audit entries link to (the chain's head, the
   * last entry, the actors' emails), read in the same round trip once the turn is taken; null
   * where reading them later costs nothing (SQLite).
   */
  takeWritesTurn(conn: AnyDb, actorIds: readonly string[]): Promise<TurnLook | null>;
  /**
   * A statement with its parameters written in, to be sent with others in one round trip
   * (writeLater). Absent where a round trip costs nothing worth saving: SQLite runs in the process.
   */
  inlineStatement?(text: string, parameters: readonly unknown[]): string;
  /**
   * A column for a WHERE condition that must not choose the query plan, so a more selective
   * condition (an indexed search) leads. SQLite's planner needs the hint; PostgreSQL's
   * statistics make the choice itself.
   */
  unindexed(column: string, when?: boolean): RawBuilder<unknown>;
  /**
   * The user (`alias` names the users table) has `term` in their name or e-mail address,
   * case-insensitively, answered from the users_search index where the term is long enough.
   */
  userTextMatches(term: string, alias: string): RawBuilder<boolean>;
  /** Whether userTextMatches(term) reads an index (such a search matches few users). */
  isIndexedUserSearch(term: string): boolean;
  /** Column types for migrations where the two differ: raw bytes, and a floating-point number. */
  readonly types: { bytes: ColumnDataType; float: ColumnDataType };
  /** An integer primary key the database numbers itself. */
  autoIncrementKey(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /**
   * Rows picked for a claim (a subquery of the UPDATE that claims them): on PostgreSQL locked
   * FOR UPDATE SKIP LOCKED, so concurrent claimers each take different rows without waiting;
   * on SQLite as they are, the claiming statement holding the one write lock.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query's row type passes through unchanged
  skipLocked<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q;
  /**
   * The day `months` calendar months after `day` (both YYYY-MM-DD text), counted as addMonths in
   * app/utils/organisation-calendar.ts counts: a day past the end of the month reached is that
   * month's last (31 August + 6 months is 28 February). Null when either is null.
   */
  addMonths(day: Expression<string | null>, months: Expression<number | null>): RawBuilder<string | null>;
}

/** A trigram index (FTS5's trigram tokenizer, pg_trgm) indexes three characters at a time. */
const TRIGRAM = 3;

function isTrigramTerm(term: string): boolean {
  return [...term].length >= TRIGRAM;
}

function likeMatch(term: string, alias: string): RawBuilder<boolean> {
  return columnsContain(term, [`${alias}.full_name`, `${alias}.email`]);
}

/**
 * True where any of `columns` contains `term`, ignoring case, read by a scan (no index): for text
 * kept beside a user rather than in the users table, such as a message's address for someone
 * with no account. Control characters go, as in userTextMatches.
 */
export function columnsContain(raw: string, columns: string[]): RawBuilder<boolean> {
  const pattern = likePattern(cleanSearchTerm(raw, raw.length));
  // ESCAPE makes the backslashes likePattern puts before % and _ mean "this character".
  const each = columns.map((c) => sql`lower(${sql.ref(c)}) like ${pattern} escape '\\'`);
  return sql<boolean>`(${sql.join(each, sql` or `)})`;
}

const sqlite: DialectSql = {
  name: "sqlite",
  async beginWrite(conn) {
    // BEGIN IMMEDIATE takes the write lock up front, so two writers never deadlock upgrading
    // read locks and a second process waits (busy_timeout) instead of failing.
    await sql`begin immediate`.execute(conn);
  },
  beginScopedWrite(conn) {
    return this.beginWrite(conn);
  },
  async takeWritesTurn() {
    return null;
  },
  unindexed(column, when = true) {
    // Unary + makes the condition unusable by an index.
    return when ? sql`+${sql.ref(column)}` : sql`${sql.ref(column)}`;
  },
  userTextMatches(raw, alias) {
    // FTS5 reads its query as a C string, so a NUL would end it mid-phrase: control characters go.
    const term = cleanSearchTerm(raw, raw.length);
    if (!isTrigramTerm(term)) return likeMatch(term, alias);
    // A quoted FTS5 phrase is taken literally; a double quote inside it is written twice.
    const phrase = `"${term.replaceAll('"', '""')}"`;
    return sql<boolean>`${sql.ref(`${alias}.rowid`)} in (select rowid from users_search where users_search match ${phrase})`;
  },
  isIndexedUserSearch: isTrigramTerm,
  types: { bytes: "blob", float: "real" },
  autoIncrementKey: (c) => c.primaryKey().autoIncrement(),
  skipLocked: (query) => query,
  // date() carries a day past the month's end into the next month (31 August + 6 months is
  // 3 March), so the month's last day (its first, a month on, a day back) caps it; scalar min()
  // is null when either is.
  addMonths: (day, months) =>
    sql<string | null>`min(date(${day}, '+' || ${months} || ' months'), date(${day}, 'start of month', '+' || (${months} + 1) || ' months', '-1 day'))`,
};

/**
 * BEGIN and the locks in one round trip (a query without parameters may hold several
 * statements): a round trip costs a write its turn on two busy processes, and every write
 * queued behind it waits as long.
 */
async function beginLocked(conn: AnyDb, locks: string): Promise<void> {
  try {
    await sql.raw(`begin; ${locks}`).execute(conn);
  } catch (error) {
    await sql`rollback`.execute(conn);
    throw error;
  }
}

const postgres: DialectSql = {
  name: "postgres",
  async beginWrite(conn) {
    // READ COMMITTED plus one transaction-scoped advisory lock: writers take turns across every
    // server on the database, as SQLite's single writer does, and each statement after the lock
    // reads what the previous writer committed. Serializable isolation would need every caller
    // to retry on a serialization failure instead.
    await beginLocked(conn, `select pg_advisory_xact_lock(${WRITE_LOCK_KEY})`);
  },
  async beginScopedWrite(conn, scopes) {
    // The write lock shared (an exclusive writer waits for every scoped one to end), then each
    // scope's own lock in one order, so two scoped writes never wait for each other both ways.
    const keys = [...new Set(scopes.map(scopeLockKey))].sort();
    await beginLocked(conn, [`select pg_advisory_xact_lock_shared(${WRITE_LOCK_KEY})`, ...keys.map((k) => `select pg_advisory_xact_lock(${k})`)].join("; "));
  },
  async takeWritesTurn(conn, actorIds) {
    // the lock, then the reads, in one function (migration 2026-12-06T0600): one round trip
    // where the reads took one more in the turn, while every other scoped write waited
    const look = await sql<TurnLook>`select * from take_writes_turn(${sql.lit(WRITES_TURN_KEY)}, ${[...actorIds]}::text[])`.execute(conn);
    return look.rows[0] ?? null;
  },
  inlineStatement,
  unindexed(column) {
    return sql`${sql.ref(column)}`;
  },
  userTextMatches(raw, alias) {
    // PostgreSQL refuses a NUL in text: control characters go, as on SQLite.
    const term = cleanSearchTerm(raw, raw.length);
    // The GIN pg_trgm indexes on lower(full_name) and lower(email) answer LIKE '%term%' for
    // terms of three characters or more; shorter ones scan, as on SQLite.
    return likeMatch(term, alias);
  },
  isIndexedUserSearch: isTrigramTerm,
  // SQLite's REAL is eight bytes; PostgreSQL's is four.
  types: { bytes: "bytea", float: "double precision" },
  autoIncrementKey: (c) => c.primaryKey().generatedByDefaultAsIdentity(),
  skipLocked: (query) => query.forUpdate().skipLocked() as typeof query,
  // adding an interval of months keeps the day within the month reached
  addMonths: (day, months) => sql<string | null>`to_char(cast(${day} as date) + make_interval(months => cast(${months} as integer)), 'YYYY-MM-DD')`,
};

export function dialectSql(db: AnyDb): DialectSql {
  return dialectOf(db) === "postgres" ? postgres : sqlite;
}

/**
 * Whether a write failed on a unique key (a primary key included): SQLite's codes and
 * PostgreSQL's SQLSTATE 23505. The one test of it: a race that both sides checked and one lost.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}
