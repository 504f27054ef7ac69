import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "#db/connection";
import { chainHash, GENESIS_HASH } from "#db/audit-chain";
import { auditOwnerWarning, grantAppRole } from "#db/roles";
import { migrations } from "#migrations/index";
import { createTestDb, TEST_DIALECT, type TestDb } from "../../tests/support/test-db";
import { withAdmin } from "../../tests/support/postgres-test-server";
import { makeUser } from "../../tests/support/factories";
import { auditChainLine, recordAudit, verifyAuditChain } from "./audit.server";

/**
 * The audit trail's hash chain (docs/decisions/017-audit-integrity.md): every way of changing
 * the trail behind the app's back is refused by the database or reported by the verifier with
 * the number of the first entry that does not match.
 */
const onSqlite = TEST_DIALECT === "sqlite" ? it : it.skip;
const onPostgres = TEST_DIALECT === "postgres" ? it : it.skip;

const open: TestDb[] = [];
afterAll(async () => {
  for (const t of open) await t.cleanup();
});

/** A database whose trail holds `n` entries (ids 1..n), to tamper with. */
async function trail(n = 5): Promise<TestDb> {
  const t = await createTestDb();
  open.push(t);
  const user = await makeUser(t.db, { role: "admin" });
  for (let i = 1; i <= n; i++) {
    await recordAudit(t.db, { action: "staff.approved", actor: { id: user.id, client: "203.0.113.9" }, subject: { type: "user", id: `u-${i}` }, detail: `entry ${i}` });
  }
  return t;
}

const line = async (db: DB) => auditChainLine(await verifyAuditChain(db));

/** Runs statements on one connection (settings such as session_replication_role hold per connection). */
async function onOneConnection(db: DB, statements: string[]): Promise<void> {
  await db.connection().execute(async (conn) => {
    for (const s of statements) await sql.raw(s).execute(conn);
  });
}

describe("the chain", () => {
  it("links every entry to the one before it; the verifier says how far it is intact", async () => {
    const { db } = await trail(5);
    const rows = await db.selectFrom("audit_log").selectAll().orderBy("id").execute();
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    expect(rows[0]!.prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
    for (const row of rows) expect(row.hash).toBe(chainHash(row));
    expect(await verifyAuditChain(db, 2)).toEqual({ intact: true, through: 5, entries: 5 });
    expect(await line(db)).toBe("Audit trail: chain intact through entry 5");
  });

  it("an empty trail says so", async () => {
    const t = await createTestDb();
    open.push(t);
    expect(await line(t.db)).toBe("Audit trail: no entries yet");
  });

  it("a text cut inside a character pair is hashed as the database keeps it", async () => {
    const { db } = await trail(1);
    await recordAudit(db, { action: "sign_in.failed", actor: { id: null, client: `${"x".repeat(99)}😀` }, detail: "\uD83D" });
    expect(await line(db)).toBe("Audit trail: chain intact through entry 2");
  });

  it("entries written before the chain existed are hashed, in order, by its migration", async () => {
    const t = await createTestDb();
    open.push(t);
    const names = Object.keys(migrations).sort();
    const before = names[names.indexOf("2026-11-27T1100_audit_chain") - 1]!;
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo(before);
    expect(down.error).toBeUndefined();
    for (let i = 1; i <= 3; i++) {
      await t.db
        .insertInto("audit_log")
        .values({ at: `2026-11-0${i}T00:00:00.000Z`, action: "sign_out", detail: `old ${i}` } as never)
        .execute();
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await line(t.db)).toBe("Audit trail: chain intact through entry 3");
    await recordAudit(t.db, { action: "sign_out", actor: { id: null } });
    expect(await line(t.db)).toBe("Audit trail: chain intact through entry 4");
  });

  it("appends made at once, over several connections, never fork the chain", async () => {
    const { db, url } = await trail(1);
    // SQLite has one writer; each PostgreSQL pool is a server of its own
    const dbs = TEST_DIALECT === "postgres" ? [db, openDatabase(url), openDatabase(url)] : [db];
    try {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => recordAudit(dbs[i % dbs.length]!, { action: "sign_out", actor: { id: null }, detail: `concurrent ${i}` })),
      );
    } finally {
      for (const other of dbs.slice(1)) await other.destroy();
    }
    expect(await verifyAuditChain(db, 7)).toEqual({ intact: true, through: 51, entries: 51 });
  });
});

describe("tampering on SQLite", () => {
  onSqlite("INSERT OR REPLACE and REPLACE with an existing id are refused", async () => {
    const { db } = await trail(3);
    const row = await db.selectFrom("audit_log").selectAll().where("id", "=", 2).executeTakeFirstOrThrow();
    const forged = { ...row, detail: "forged" };
    const values = sql.join([forged.id, forged.at, forged.action, forged.detail, forged.prev_hash, chainHash(forged)]);
    await expect(sql`insert or replace into audit_log (id, at, action, detail, prev_hash, hash) values (${values})`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`replace into audit_log (id, at, action, detail, prev_hash, hash) values (${values})`.execute(db)).rejects.toThrow(/append-only/);
    // nor can an entry be slipped in under a number of its own choosing
    await expect(sql`insert into audit_log (id, at, action, prev_hash, hash) values (9, 'x', 'sign_out', 'x', 'x')`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`insert into audit_log (at, action, prev_hash, hash) values ('x', 'sign_out', 'x', 'x')`.execute(db)).rejects.toThrow(/append-only/);
    expect((await db.selectFrom("audit_log").select("detail").where("id", "=", 2).executeTakeFirstOrThrow()).detail).toBe("entry 2");
    expect(await line(db)).toBe("Audit trail: chain intact through entry 3");
  });

  onSqlite("a delete after dropping the trigger is reported with the entry's number", async () => {
    const { db } = await trail(5);
    await onOneConnection(db, ["drop trigger audit_log_no_delete", "delete from audit_log where id = 3"]);
    expect(await verifyAuditChain(db, 2)).toMatchObject({ intact: false, entry: 3, through: 2, problem: "missing" });
    expect(await line(db)).toBe("Audit trail: entry 3 does not match: it was removed");
  });

  onSqlite("an update after dropping the trigger is reported with the entry's number", async () => {
    const { db } = await trail(5);
    await onOneConnection(db, ["drop trigger audit_log_no_update", "update audit_log set detail = 'nothing happened' where id = 4"]);
    expect(await line(db)).toBe("Audit trail: entry 4 does not match: it was changed after it was written");
  });

  onSqlite("a replacement hashed again, with every trigger dropped, is reported by the entry after it", async () => {
    const { db } = await trail(5);
    const row = await db.selectFrom("audit_log").selectAll().where("id", "=", 2).executeTakeFirstOrThrow();
    const forged = { ...row, detail: "forged" };
    await onOneConnection(db, ["drop trigger audit_log_next_only", "drop trigger audit_log_no_delete"]);
    await db.insertInto("audit_log").orReplace().values({ ...forged, hash: chainHash(forged) }).execute();
    expect((await db.selectFrom("audit_log").select("detail").where("id", "=", 2).executeTakeFirstOrThrow()).detail).toBe("forged");
    expect(await line(db)).toBe("Audit trail: entry 2 does not match: it was replaced after entry 3 was written, which holds a different hash for it");
  });

  onSqlite("removing the first entries is reported from entry 1", async () => {
    const { db } = await trail(4);
    await onOneConnection(db, ["drop trigger audit_log_no_delete", "delete from audit_log where id <= 2"]);
    expect(await line(db)).toBe("Audit trail: entry 1 does not match: entries 1 to 2 were removed");
  });
});

describe("tampering on PostgreSQL as the tables' owner", () => {
  onPostgres("with the triggers disabled, an update and a delete are reported with the entries' numbers", async () => {
    const { db } = await trail(6);
    await onOneConnection(db, ["alter table audit_log disable trigger user", "update audit_log set client = '198.51.100.1' where id = 5"]);
    expect(await line(db)).toBe("Audit trail: entry 5 does not match: it was changed after it was written");
    await onOneConnection(db, ["delete from audit_log where id = 2", "alter table audit_log enable trigger user"]);
    expect(await line(db)).toBe("Audit trail: entry 2 does not match: it was removed");
  });

  onPostgres("with session_replication_role = replica, a change is reported with the entry's number", async () => {
    const { db } = await trail(4);
    await onOneConnection(db, ["set session_replication_role = replica", "update audit_log set detail = 'quiet' where id = 3", "set session_replication_role = origin"]);
    expect(await line(db)).toBe("Audit trail: entry 3 does not match: it was changed after it was written");
    await onOneConnection(db, ["set session_replication_role = replica", "delete from audit_log where id = 1", "set session_replication_role = origin"]);
    expect(await line(db)).toBe("Audit trail: entry 1 does not match: it was removed");
  });
});

describe("PostgreSQL's role split", () => {
  const role = `portal_app_${crypto.randomBytes(4).toString("hex")}`;
  let owner: TestDb;
  let app: DB;
  beforeAll(async () => {
    if (TEST_DIALECT !== "postgres") return;
    owner = await trail(3);
    await grantAppRole(owner.db, role);
    const url = new URL(owner.url);
    url.username = role;
    url.password = "";
    app = openDatabase(url.toString());
  });
  afterAll(async () => {
    if (TEST_DIALECT !== "postgres") return;
    await app.destroy();
    await owner.cleanup();
    open.splice(open.indexOf(owner), 1);
    await withAdmin((c) => c.query(`drop role if exists ${role}`));
  });

  onPostgres("the portal's role appends and reads, and is refused every way of rewriting the trail", async () => {
    await recordAudit(app, { action: "sign_out", actor: { id: null }, detail: "as the portal" });
    expect(await line(app)).toBe("Audit trail: chain intact through entry 4");
    await expect(sql`alter table audit_log disable trigger user`.execute(app)).rejects.toThrow(/must be owner/);
    await expect(sql`alter table audit_log disable trigger audit_log_no_change`.execute(app)).rejects.toThrow(/must be owner/);
    await expect(sql`set session_replication_role = replica`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`update audit_log set detail = 'x' where id = 2`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`delete from audit_log where id = 2`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`truncate audit_log`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`drop trigger audit_log_no_change on audit_log`.execute(app)).rejects.toThrow(/must be owner/);
    await expect(sql`insert into audit_log (id, at, action, prev_hash, hash) values (2, 'x', 'sign_out', 'x', 'x')`.execute(app)).rejects.toThrow();
    // the rest of the portal's data it reads and writes
    await app.updateTable("users").set({ full_name: "Renamed By Portal" }).where("role", "=", "admin").execute();
    expect(await line(owner.db)).toBe("Audit trail: chain intact through entry 4");
  });

  onPostgres("the start-up warning names the owner's connection, not the portal's role", async () => {
    expect(await auditOwnerWarning(owner.db)).toMatch(/^Warning: the portal connects to PostgreSQL as "postgres", a superuser\./);
    expect(await auditOwnerWarning(app)).toBeNull();
  });

  onPostgres("npm start's preparation warns when the portal would run as the owner, and not when it runs as its own role", () => {
    const appUrl = new URL(owner.url);
    appUrl.username = role;
    const prepare = (env: Record<string, string>) => {
      const result = spawnSync(path.resolve("node_modules/.bin/tsx"), ["scripts/prepare.ts"], {
        env: { ...process.env, SEED_DEMO: "false", APP_URL: "", SMTP_URL: "", ...env },
        encoding: "utf8",
        timeout: 60_000,
      });
      return { status: result.status, output: `${result.stdout}${result.stderr}` };
    };
    const asOwner = prepare({ DATABASE_URL: owner.url, MIGRATION_DATABASE_URL: "" });
    expect(asOwner.status, asOwner.output).toBe(0);
    expect(asOwner.output).toContain('Warning: the portal connects to PostgreSQL as "postgres"');
    const split = prepare({ DATABASE_URL: appUrl.toString(), MIGRATION_DATABASE_URL: owner.url });
    expect(split.status, split.output).toBe(0);
    expect(split.output).toContain("Database schema is up to date.");
    expect(split.output).not.toContain("Warning");
  });

  onPostgres("db:roles is idempotent and refuses to make the owner the portal's role", async () => {
    expect(await grantAppRole(owner.db, role)).toEqual({ created: false, owner: "postgres" });
    await expect(grantAppRole(owner.db, "postgres")).rejects.toThrow(/owns the tables/);
    await expect(grantAppRole(owner.db, "bad name; drop table users")).rejects.toThrow(/lower-case letters/);
  });
});

describe("npm run audit:verify", () => {
  const verify = (url: string) => {
    const result = spawnSync(path.resolve("node_modules/.bin/tsx"), ["scripts/audit-verify.ts"], { env: { ...process.env, DATABASE_URL: url }, encoding: "utf8", timeout: 60_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it("prints the intact line and exits 0; names the first entry that does not match and exits 1", async () => {
    const { db, url } = await trail(4);
    expect(verify(url)).toMatchObject({ status: 0, stdout: "Audit trail: chain intact through entry 4\n" });
    const unguard = TEST_DIALECT === "postgres" ? "alter table audit_log disable trigger user" : "drop trigger audit_log_no_update";
    await onOneConnection(db, [unguard, "update audit_log set action = 'sign_out' where id = 2"]);
    expect(verify(url)).toMatchObject({ status: 1, stdout: "Audit trail: entry 2 does not match: it was changed after it was written\n" });
  });
});
