import { sql, type Kysely } from "kysely";
import pg from "pg";
import type { ConnectionLog } from "./connection";
import type { AnyDb } from "./dialect";
import type { Database } from "./schema";

/**
 * On PostgreSQL, every server learns of every committed write through LISTEN/NOTIFY: each table
 * has a statement trigger that calls pg_notify on CHANGE_CHANNEL, which PostgreSQL delivers to
 * every listening connection when (and only when) the writing transaction commits. A process
 * keeps one listening connection and counts what it hears; whatever it caches from the
 * database is valid while that count stays the same. SQLite's counterpart is PRAGMA
 * data_version, which moves when another connection commits.
 */

export const CHANGE_CHANNEL = "portal_changes";

/**
 * The version of one change_counters topic, or null on a database without it. Triggers move a
 * topic's counter inside every write to the data behind it (migrations 2026-11-26T0400 and
 * T0821), so a cache kept per topic version survives writes elsewhere and sees a change from
 * any process on any server once it commits.
 */
export async function changeCounter(db: Kysely<Database>, topic: "avetmiss" | "catalogue"): Promise<number | null> {
  const row = await db.selectFrom("change_counters").select("version").where("topic", "=", topic).executeTakeFirst();
  return row ? Number(row.version) : null;
}
const TRIGGER = "portal_notify_change";

/**
 * Gives every table the notifying trigger (idempotent). Run after the migrations, so a table a
 * later migration adds is covered without that migration knowing about it.
 */
export async function installChangeNotifications(db: AnyDb): Promise<void> {
  await sql
    .raw(
      `create or replace function ${TRIGGER}() returns trigger language plpgsql as $$
       begin perform pg_notify('${CHANGE_CHANNEL}', ''); return null; end $$`,
    )
    .execute(db);
  const tables = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and n.nspname = current_schema() and c.relname not like 'kysely_migration%'
      and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = ${TRIGGER})`.execute(db);
  for (const { name } of tables.rows) {
    await sql
      .raw(`create trigger ${TRIGGER} after insert or update or delete or truncate on "${name}" for each statement execute function ${TRIGGER}()`)
      .execute(db);
  }
}

const RECONNECT_MS = 1_000;

export interface ChangeFeed {
  /** Moves on every write committed by any server; while the feed is down, on every call. */
  version(): string;
  close(): Promise<void>;
}

/**
 * Listens on CHANGE_CHANNEL, reconnecting a second after a drop (anything may have changed
 * meanwhile, so version() moves on every call until it listens again). A drop is logged once, and
 * listening again once, however many tries it took.
 */
export function listenForChanges(url: string, log: ConnectionLog): ChangeFeed {
  let count = 0;
  let live = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let lost = false;

  const connect = async () => {
    const c = new pg.Client({ connectionString: url, keepAlive: true });
    client = c;
    c.on("notification", () => {
      count++;
    });
    c.on("error", (error) => drop(c, error));
    c.on("end", () => drop(c));
    try {
      await c.connect();
      await c.query(`listen ${CHANGE_CHANNEL}`);
      if (closed) return void c.end().catch(() => {});
      count++;
      live = true;
      if (lost) log({ event: "database-listening-again", connection: "change-feed" });
      lost = false;
    } catch (error) {
      drop(c, error);
    }
  };
  const drop = (c: pg.Client, error?: unknown) => {
    if (client !== c) return;
    if (!lost && !closed) {
      lost = true;
      log({
        event: "database-connection-lost",
        connection: "change-feed",
        error: String(error instanceof Error ? error.message : "connection ended").slice(0, 200),
      });
    }
    client = undefined;
    live = false;
    c.end().catch(() => {});
    if (!closed) retry = setTimeout(() => void connect(), RECONNECT_MS).unref();
  };
  void connect();

  return {
    version: () => (live ? String(count) : `down-${++count}`),
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      live = false;
      await c?.end().catch(() => {});
    },
  };
}
