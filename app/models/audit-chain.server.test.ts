import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, writeTransaction, type DB } from "#db/connection";
import { chainHash, GENESIS_HASH } from "#db/audit-chain";
import { auditOwnerWarning, grantAppRole } from "#db/roles";
import { migrations } from "#migrations/index";
import { deploymentScript } from "../../tests/support/deployment-scripts";
import { createTestDb, TEST_DIALECT, type TestDb } from "../../tests/support/test-db";
import { withAdmin } from "../../tests/support/postgres-test-server";
import { makeUser } from "../../tests/support/factories";
import { auditChainLine, verifyAuditChain } from "./audit-chain.server";
import { recordAudit } from "./audit.server";

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
    await writeTransaction(t.db, (trx) =>
      recordAudit(trx, {
        action: "staff.approved",
        actor: { id: user.id, client: "203.0.113.9" },
        subject: { type: "user", id: `u-${i}` },
        detail: `entry ${i}`,
      }),
    );
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
    expect(await verifyAuditChain(db, { batch: 2 })).toEqual({ intact: true, through: 5, entries: 5, checkpoint: null, checkpoints: 0, pendingTo: null });
    expect(await line(db)).toBe("Audit trail: chain intact through entry 5; no signed checkpoint yet");
  });

  it("an empty trail says so", async () => {
    const t = await createTestDb();
    open.push(t);
    expect(await line(t.db)).toBe("Audit trail: no entries yet");
  });

  it("a text cut inside a character pair is hashed as the database keeps it", async () => {
    const { db } = await trail(1);
    await writeTransaction(db, (trx) => recordAudit(trx, { action: "sign_in.failed", actor: { id: null, client: `${"x".repeat(99)}😀` }, detail: "\uD83D" }));
    expect(await line(db)).toBe("Audit trail: chain intact through entry 2; no signed checkpoint yet");
  });

  it("entries written before the chain existed are hashed, in order, by its migration", async () => {
    const t = await createTestDb();
    open.push(t);
    const names = Object.keys(migrations).sort();
    const before = names[names.indexOf("2026-11-27T1100_audit_chain") - 1]!;
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo(before);
    expect(down.error).toBeUndefined();
    // ids 3 and 4 were taken by writes that rolled back (a PostgreSQL sequence does not give them back)
    for (const id of [1, 2, 5]) {
      await t.db
        .insertInto("audit_log")
        .values({ id, at: `2026-11-0${id}T00:00:00.000Z`, action: "sign_out", detail: `old ${id}` } as never)
        .execute();
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await line(t.db)).toBe("Audit trail: chain intact through entry 5; no signed checkpoint yet");
    await writeTransaction(t.db, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null } }));
    expect(await line(t.db)).toBe("Audit trail: chain intact through entry 6; no signed checkpoint yet");
    expect(await t.db.selectFrom("audit_head").selectAll().executeTakeFirstOrThrow()).toMatchObject({ last_id: 6, gapless_after: 5 });
  });

  it("appends made at once, over several connections, never fork the chain", async () => {
    const { db, url } = await trail(1);
    // SQLite has one writer; each PostgreSQL pool is a server of its own
    const dbs = TEST_DIALECT === "postgres" ? [db, openDatabase(url), openDatabase(url)] : [db];
    try {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          writeTransaction(dbs[i % dbs.length]!, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null }, detail: `concurrent ${i}` })),
        ),
      );
    } finally {
      for (const other of dbs.slice(1)) await other.destroy();
    }
    expect(await verifyAuditChain(db, { batch: 7 })).toEqual({ intact: true, through: 51, entries: 51, checkpoint: null, checkpoints: 0, pendingTo: null });
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
    expect(await line(db)).toBe("Audit trail: chain intact through entry 3; no signed checkpoint yet");
  });

  onSqlite("a delete after dropping the trigger is reported with the entry's number", async () => {
    const { db } = await trail(5);
    await onOneConnection(db, ["drop trigger audit_log_no_delete", "delete from audit_log where id = 3"]);
    expect(await verifyAuditChain(db, { batch: 2 })).toMatchObject({ intact: false, entry: 3, through: 2, problem: "missing" });
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
    await onOneConnection(db, ["drop trigger audit_log_next_only", "drop trigger audit_log_no_delete", "drop trigger audit_log_move_head"]);
    await db
      .insertInto("audit_log")
      .orReplace()
      .values({ ...forged, hash: chainHash(forged) })
      .execute();
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
    await onOneConnection(db, [
      "set session_replication_role = replica",
      "update audit_log set detail = 'quiet' where id = 3",
      "set session_replication_role = origin",
    ]);
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
    await writeTransaction(app, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null }, detail: "as the portal" }));
    expect(await line(app)).toBe("Audit trail: chain intact through entry 4; no signed checkpoint yet");
    await expect(sql`alter table audit_log disable trigger user`.execute(app)).rejects.toThrow(/must be owner/);
    await expect(sql`alter table audit_log disable trigger audit_log_no_change`.execute(app)).rejects.toThrow(/must be owner/);
    await expect(sql`set session_replication_role = replica`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`update audit_log set detail = 'x' where id = 2`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`delete from audit_log where id = 2`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`truncate audit_log`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`drop trigger audit_log_no_change on audit_log`.execute(app)).rejects.toThrow(/must be owner/);
    await expect(sql`insert into audit_log (id, at, action, prev_hash, hash) values (2, 'x', 'sign_out', 'x', 'x')`.execute(app)).rejects.toThrow();
    // the chain's head it reads, and its trigger moves; it cannot move or remove it itself
    await expect(sql`update audit_head set last_id = 3`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`delete from audit_head`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`truncate audit_head`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`insert into audit_head values (2, 0, 'x', 0)`.execute(app)).rejects.toThrow(/permission denied/);
    await writeTransaction(app, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null }, detail: "as the portal, again" }));
    expect(await app.selectFrom("audit_head").select("last_id").executeTakeFirstOrThrow()).toEqual({ last_id: 5 });
    // the rest of the portal's data it reads and writes
    await app.updateTable("users").set({ full_name: "Renamed By Portal" }).where("role", "=", "admin").execute();
    expect(await line(owner.db)).toBe("Audit trail: chain intact through entry 5; no signed checkpoint yet");
  });

  onPostgres("the start-up warning names the owner's connection, not the portal's role", async () => {
    expect(await auditOwnerWarning(owner.db)).toMatch(/^Warning: the portal connects to PostgreSQL as "postgres", a superuser\./);
    expect(await auditOwnerWarning(app)).toBeNull();
  });

  onPostgres("npm start's preparation warns when the portal would run as the owner, and not when it runs as its own role", () => {
    const appUrl = new URL(owner.url);
    appUrl.username = role;
    const prepare = (env: Record<string, string>) => {
      const result = spawnSync(process.execPath, [deploymentScript("prepare")], {
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

  onPostgres("the head made by a migration after db:roles gives the portal's role only SELECT, without db:roles again", async () => {
    const migrator = new Migrator({ db: owner.db, provider: { getMigrations: async () => migrations } });
    const names = Object.keys(migrations).sort();
    expect((await migrator.migrateTo(names[names.indexOf("2026-11-27T1600_audit_head") - 1]!)).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const before = (
      await owner.db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.max("id").as("n"))
        .executeTakeFirstOrThrow()
    ).n;
    await writeTransaction(app, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null }, detail: "after the head was made again" }));
    await expect(sql`update audit_head set gapless_after = 0`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`delete from audit_head`.execute(app)).rejects.toThrow(/permission denied/);
    expect(await line(app)).toBe(`Audit trail: chain intact through entry ${Number(before) + 1}; no signed checkpoint yet`);
  });
});

/** npm run audit:verify as an operator runs it: the build's script, in a process. */
const verify = (url: string) => {
  const result = spawnSync(process.execPath, [deploymentScript("audit-verify")], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
};

/**
 * Removes the newest `n` entries the way someone holding the database would: drop the delete
 * trigger (SQLite) or, as the owner, disable the table's triggers (PostgreSQL), and leave them so
 * unless `restore`.
 */
async function removeTail(db: DB, n: number, restore = false): Promise<void> {
  const removals = Array.from({ length: n }, () => "delete from audit_log where id = (select max(id) from audit_log)");
  if (TEST_DIALECT === "postgres") {
    await onOneConnection(db, ["alter table audit_log disable trigger user", ...removals, ...(restore ? ["alter table audit_log enable trigger user"] : [])]);
  } else {
    await onOneConnection(db, ["drop trigger audit_log_no_delete", ...removals]);
  }
}

const append = (db: DB, detail: string) => writeTransaction(db, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null }, detail }));

describe("the chain's head", () => {
  it("removing the newest entry is reported, and stays reported after later appends", async () => {
    const { db, url } = await trail(5);
    await removeTail(db, 1);
    expect(await verifyAuditChain(db, { batch: 2 })).toMatchObject({ intact: false, entry: 5, through: 4, problem: "missing", missingTo: 5 });
    expect(verify(url)).toMatchObject({ status: 1, stdout: "Audit trail: entry 5 does not match: it was removed\n" });
    // on PostgreSQL audit_log's triggers are still off: the portal keeps writing all the same
    await append(db, "after the removal");
    await append(db, "and another");
    expect(await line(db)).toBe("Audit trail: entry 5 does not match: it was removed");
    if (TEST_DIALECT === "postgres") await onOneConnection(db, ["alter table audit_log enable trigger user"]);
    await append(db, "with the triggers back");
    expect((await db.selectFrom("audit_head").select("last_id").executeTakeFirstOrThrow()).last_id).toBe(8);
    expect(verify(url)).toMatchObject({ status: 1, stdout: "Audit trail: entry 5 does not match: it was removed\n" });
  });

  it("removing the newest three entries is reported with their numbers, and stays reported after later appends", async () => {
    const { db, url } = await trail(6);
    await removeTail(db, 3, true);
    expect(await verifyAuditChain(db)).toMatchObject({ intact: false, entry: 4, through: 3, problem: "missing", missingTo: 6 });
    expect(verify(url)).toMatchObject({ status: 1, stdout: "Audit trail: entry 4 does not match: entries 4 to 6 were removed\n" });
    await append(db, "after the removal");
    // the next entry takes the number after the head and links to the removed entry's hash
    const next = await db.selectFrom("audit_log").select(["id", "prev_hash"]).orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
    expect(next.id).toBe(7);
    expect(await verifyAuditChain(db, { batch: 2 })).toMatchObject({ intact: false, entry: 4, through: 3, problem: "missing", missingTo: 6, foundAt: 7 });
    await append(db, "and another");
    expect(verify(url)).toMatchObject({ status: 1, stdout: "Audit trail: entry 4 does not match: entries 4 to 6 were removed\n" });
  });

  it("removing every entry is reported from entry 1", async () => {
    const { db } = await trail(2);
    await removeTail(db, 2);
    expect(await line(db)).toBe("Audit trail: entry 1 does not match: entries 1 to 2 were removed");
  });

  it("the head moves with every insert, and refuses every other change", async () => {
    const { db } = await trail(3);
    const hashOf = async (id: number) => (await db.selectFrom("audit_log").select("hash").where("id", "=", id).executeTakeFirstOrThrow()).hash;
    expect(await db.selectFrom("audit_head").selectAll().executeTakeFirstOrThrow()).toEqual({
      id: 1,
      last_id: 3,
      last_hash: await hashOf(3),
      gapless_after: 0,
    });
    const refused = /audit_head only moves forward/;
    await expect(sql`update audit_head set last_id = 2, last_hash = ${await hashOf(2)}`.execute(db)).rejects.toThrow(refused);
    await expect(sql`update audit_head set last_id = 4, last_hash = 'x'`.execute(db)).rejects.toThrow(refused);
    await expect(sql`update audit_head set last_hash = ${await hashOf(2)}`.execute(db)).rejects.toThrow(refused);
    await expect(sql`update audit_head set gapless_after = 3`.execute(db)).rejects.toThrow(refused);
    await expect(sql`delete from audit_head`.execute(db)).rejects.toThrow(refused);
    await expect(sql`insert into audit_head (id, last_id, last_hash, gapless_after) values (2, 2, 'x', 0)`.execute(db)).rejects.toThrow(refused);
    if (TEST_DIALECT === "postgres") {
      await expect(sql`truncate audit_head`.execute(db)).rejects.toThrow(refused);
    } else {
      await expect(
        sql`insert or replace into audit_head (id, last_id, last_hash, gapless_after) values (1, 2, ${await hashOf(2)}, 0)`.execute(db),
      ).rejects.toThrow(refused);
    }
    // nor can it be moved back over a removed tail
    await removeTail(db, 1, true);
    await expect(sql`update audit_head set last_id = 2, last_hash = ${await hashOf(2)}`.execute(db)).rejects.toThrow(refused);
    expect(await line(db)).toBe("Audit trail: entry 3 does not match: it was removed");
  });

  it("an entry that reuses a removed number is refused", async () => {
    const { db } = await trail(3);
    await removeTail(db, 1, true);
    const two = await db.selectFrom("audit_log").selectAll().where("id", "=", 2).executeTakeFirstOrThrow();
    const forged = { ...two, id: 3, detail: "in its place", prev_hash: two.hash };
    await expect(
      db
        .insertInto("audit_log")
        .values({ ...forged, hash: chainHash(forged) })
        .execute(),
    ).rejects.toThrow(/append-only/);
  });

  it("a gap the links were mended across is a removal, and a last entry hashed again does not match the head", async () => {
    const { db } = await trail(4);
    const unguard =
      TEST_DIALECT === "postgres"
        ? ["alter table audit_log disable trigger user", "alter table audit_head disable trigger user"]
        : ["drop trigger audit_log_no_delete", "drop trigger audit_log_no_update", "drop trigger audit_head_forward_only"];
    await onOneConnection(db, [...unguard, "delete from audit_log where id = 2"]);
    // entries 3 and 4 hashed again, linked across the gap, and the head moved to the new hash
    let prev = (await db.selectFrom("audit_log").select("hash").where("id", "=", 1).executeTakeFirstOrThrow()).hash;
    for (const id of [3, 4]) {
      const row = await db.selectFrom("audit_log").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      const hash = chainHash({ ...row, prev_hash: prev });
      await db.updateTable("audit_log").set({ prev_hash: prev, hash }).where("id", "=", id).execute();
      prev = hash;
    }
    await db.updateTable("audit_head").set({ last_hash: prev }).execute();
    expect(await line(db)).toBe("Audit trail: entry 2 does not match: it was removed");

    const other = await trail(2);
    const last = await other.db.selectFrom("audit_log").selectAll().where("id", "=", 2).executeTakeFirstOrThrow();
    const forged = { ...last, detail: "something else" };
    const unguardLog = TEST_DIALECT === "postgres" ? "alter table audit_log disable trigger user" : "drop trigger audit_log_no_update";
    await onOneConnection(other.db, [unguardLog]);
    await other.db
      .updateTable("audit_log")
      .set({ detail: forged.detail, hash: chainHash(forged) })
      .where("id", "=", 2)
      .execute();
    expect(await line(other.db)).toBe(
      "Audit trail: entry 2 does not match: it was replaced after it was written; the chain's head holds a different hash for it",
    );
  });

  it("entries written without moving the head are reported", async () => {
    const { db } = await trail(2);
    await onOneConnection(db, [TEST_DIALECT === "postgres" ? "alter table audit_log disable trigger user" : "drop trigger audit_log_move_head"]);
    await append(db, "behind the head");
    await append(db, "and another");
    expect(await line(db)).toBe("Audit trail: entry 3 does not match: entries 3 to 4 were added without moving the chain's head");
  });
});

describe("npm run audit:verify", () => {
  it("prints the intact line and exits 0; names the first entry that does not match and exits 1", async () => {
    const { db, url } = await trail(4);
    expect(verify(url)).toMatchObject({ status: 0, stdout: "Audit trail: chain intact through entry 4; no signed checkpoint yet\n" });
    const unguard = TEST_DIALECT === "postgres" ? "alter table audit_log disable trigger user" : "drop trigger audit_log_no_update";
    await onOneConnection(db, [unguard, "update audit_log set action = 'sign_out' where id = 2"]);
    expect(verify(url)).toMatchObject({ status: 1, stdout: "Audit trail: entry 2 does not match: it was changed after it was written\n" });
  });
});
