import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { auditKeyId, chainHash, checkpointSignature, GENESIS_SIGNATURE } from "#db/audit-chain";
import { openDatabase, writeTransaction, type DB } from "#db/connection";
import { grantAppRole } from "#db/roles";
import { deploymentScript } from "../../tests/support/deployment-scripts";
import { createTestDb, TEST_DIALECT, type TestDb } from "../../tests/support/test-db";
import { withAdmin } from "../../tests/support/postgres-test-server";
import { makeUser } from "../../tests/support/factories";
import { auditChainLine, auditChainSummary, checkpointAuditTrail, checkSinceCheckpoint, verifyAuditChain } from "./audit-chain.server";
import { recordAudit } from "./audit.server";

/**
 * The audit trail's signed checkpoints (docs/decisions/017-audit-integrity.md): the runner's job
 * verifies only the entries after the last checkpoint and signs a new one with AUDIT_KEY; a
 * rewrite that hashes every entry again, or a checkpoint forged or altered, is reported by
 * npm run audit:verify (run as a process) and by the audit page's check; a wrong key is named
 * as such.
 */
const onPostgres = TEST_DIALECT === "postgres" ? it : it.skip;
const KEY = process.env.AUDIT_KEY!;
const OTHER_KEY = "3c".repeat(32);

const open: TestDb[] = [];
afterAll(async () => {
  for (const t of open) await t.cleanup();
});

async function trail(n: number): Promise<TestDb> {
  const t = await createTestDb();
  open.push(t);
  const user = await makeUser(t.db, { role: "admin" });
  for (let i = 1; i <= n; i++) await append(t.db, `entry ${i}`, user.id);
  return t;
}

const append = (db: DB, detail: string, actor: string | null = null) =>
  writeTransaction(db, (trx) =>
    recordAudit(trx, { action: "staff.approved", actor: { id: actor, client: "203.0.113.9" }, subject: { type: "user", id: "u" }, detail }),
  );

async function onOneConnection(db: DB, statements: string[]): Promise<void> {
  await db.connection().execute(async (conn) => {
    for (const s of statements) await sql.raw(s).execute(conn);
  });
}

/** What someone holding the database (the tables' owner, or the SQLite file) does first: every guard of the trail off. */
const UNGUARD =
  TEST_DIALECT === "postgres"
    ? ["alter table audit_log disable trigger user", "alter table audit_head disable trigger user", "alter table audit_checkpoints disable trigger user"]
    : [
        "drop trigger audit_log_no_update",
        "drop trigger audit_log_no_delete",
        "drop trigger audit_head_forward_only",
        "drop trigger audit_checkpoints_no_update",
        "drop trigger audit_checkpoints_no_delete",
      ];

/**
 * The careful rewrite: entry `id` changed, every entry after it hashed again and linked anew, and
 * the chain's head moved to the new last hash. The chain alone verifies afterwards.
 */
async function rewriteFrom(db: DB, id: number, detail: string): Promise<void> {
  await onOneConnection(db, UNGUARD);
  const rows = await db.selectFrom("audit_log").selectAll().where("id", ">=", id).orderBy("id").execute();
  let prev = rows[0]!.prev_hash;
  for (const row of rows) {
    const changed = { ...row, detail: row.id === id ? detail : row.detail, prev_hash: prev };
    const hash = chainHash(changed);
    await db.updateTable("audit_log").set({ detail: changed.detail, prev_hash: prev, hash }).where("id", "=", row.id).execute();
    prev = hash;
  }
  await db.updateTable("audit_head").set({ last_hash: prev }).execute();
}

/**
 * npm run audit:verify as an operator runs it: the build's script in a process, the key from
 * its environment (or none: a folder without data/audit-key).
 */
function verifyProcess(url: string, key: string | null) {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "audit-verify-"));
  try {
    const result = spawnSync(process.execPath, [deploymentScript("audit-verify")], {
      cwd,
      env: { ...process.env, DATABASE_URL: url, AUDIT_KEY: key ?? "" },
      encoding: "utf8",
      timeout: 60_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, madeKey: fs.existsSync(path.join(cwd, "data", "audit-key")) };
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

const checkpoints = (db: DB) => db.selectFrom("audit_checkpoints").selectAll().orderBy("id").execute();

describe("the checkpoint job", () => {
  it("verifies only the entries after the last checkpoint, and signs a checkpoint through the last of them", async () => {
    const { db, url } = await trail(5);
    expect(await checkpointAuditTrail(db, { now: new Date("2026-12-04T09:00:00Z") })).toEqual({ from: 1, through: 5, verified: 5, checkpoint: 1 });
    // nothing new: nothing verified, nothing signed
    expect(await checkpointAuditTrail(db)).toEqual({ from: 6, through: 5, verified: 0, checkpoint: null });
    for (const i of [6, 7, 8]) await append(db, `entry ${i}`);
    expect(await checkpointAuditTrail(db, { now: new Date("2026-12-04T09:05:00Z") })).toEqual({ from: 6, through: 8, verified: 3, checkpoint: 2 });

    const [one, two] = await checkpoints(db);
    const hashOf = async (id: number) => (await db.selectFrom("audit_log").select("hash").where("id", "=", id).executeTakeFirstOrThrow()).hash;
    expect(one).toMatchObject({
      id: 1,
      through_id: 5,
      through_hash: await hashOf(5),
      made_at: "2026-12-04T09:00:00.000Z",
      key_id: auditKeyId(KEY),
      prev_signature: GENESIS_SIGNATURE,
    });
    expect(two).toMatchObject({ id: 2, through_id: 8, through_hash: await hashOf(8), prev_signature: one!.signature });
    // HMAC-SHA256 under the key, over the checkpoint's content
    const { signature, ...content } = two!;
    expect(signature).toBe(checkpointSignature(KEY, content));
    expect(signature).toBe(
      crypto
        .createHmac("sha256", Buffer.from(KEY, "hex"))
        .update(JSON.stringify(["audit_checkpoint/1", 2, 8, await hashOf(8), two!.made_at, auditKeyId(KEY), one!.signature]))
        .digest("hex"),
    );
    expect(verifyProcess(url, KEY)).toMatchObject({
      status: 0,
      stdout: "Audit trail: chain intact through entry 8; 2 signed checkpoints match, the last (checkpoint 2) through entry 8\n",
    });
  });

  it("never reads the entries a checkpoint already covers: a change to one of them waits for audit:verify", async () => {
    const { db, url } = await trail(4);
    await checkpointAuditTrail(db);
    // entry 2 changed in place behind the portal's back, not hashed again
    const reguard = TEST_DIALECT === "postgres" ? ["alter table audit_log enable trigger user"] : [];
    await onOneConnection(db, [UNGUARD[0]!, "update audit_log set detail = 'quietly changed' where id = 2", ...reguard]);
    await append(db, "entry 5");
    expect(await checkpointAuditTrail(db)).toEqual({ from: 5, through: 5, verified: 1, checkpoint: 2 });
    expect(verifyProcess(url, KEY)).toMatchObject({ status: 1, stdout: "Audit trail: entry 2 does not match: it was changed after it was written\n" });
  });

  it("walks at most its limit a run, and carries on from its checkpoint at the next", async () => {
    const { db } = await trail(10);
    expect(await checkpointAuditTrail(db, { limit: 4 })).toMatchObject({ from: 1, through: 4, verified: 4, checkpoint: 1 });
    expect(await checkpointAuditTrail(db, { limit: 4 })).toMatchObject({ from: 5, through: 8, verified: 4, checkpoint: 2 });
    expect(await checkpointAuditTrail(db, { limit: 4 })).toMatchObject({ from: 9, through: 10, verified: 2, checkpoint: 3 });
    expect((await checkpoints(db)).map((c) => c.through_id)).toEqual([4, 8, 10]);
  });

  it("signs nothing when a new entry does not match, and says which", async () => {
    const { db } = await trail(3);
    await checkpointAuditTrail(db);
    await append(db, "entry 4");
    await onOneConnection(db, [UNGUARD[0]!, "update audit_log set detail = 'changed' where id = 4"]);
    await expect(checkpointAuditTrail(db)).rejects.toThrow("Audit trail: entry 4 does not match: it was changed after it was written");
    expect(await checkpoints(db)).toHaveLength(1);
  });

  it("two workers at once sign one checkpoint", async () => {
    const { db, url } = await trail(6);
    const other = TEST_DIALECT === "postgres" ? openDatabase(url) : db;
    try {
      const runs = await Promise.all([checkpointAuditTrail(db), checkpointAuditTrail(other)]);
      expect(runs.map((r) => r.checkpoint).sort()).toEqual([1, null]);
    } finally {
      if (other !== db) await other.destroy();
    }
    expect(await checkpoints(db)).toHaveLength(1);
  });
});

describe("a rewrite that hashed every entry again", () => {
  it("passes the chain, and is reported by the checkpoint it no longer matches: audit:verify exits 1, the page and the job say so", async () => {
    const { db, url } = await trail(6);
    await checkpointAuditTrail(db);
    await append(db, "entry 7");
    await rewriteFrom(db, 2, "nothing to see");
    expect((await db.selectFrom("audit_log").select("detail").where("id", "=", 2).executeTakeFirstOrThrow()).detail).toBe("nothing to see");
    // the chain alone (all a verifier without the key can check) holds together
    expect(auditChainLine(await verifyAuditChain(db, { key: null }))).toMatch(
      /^Audit trail: chain intact through entry 7, but its signed checkpoints were not checked/,
    );

    const expected =
      "Audit trail: checkpoint 1 does not match: entry 6 no longer has the hash the checkpoint signed, so the trail up to it was rewritten and hashed again";
    expect(verifyProcess(url, KEY)).toMatchObject({ status: 1, stdout: `${expected}\n` });
    expect(await auditChainSummary(db)).toEqual({
      intact: false,
      through: 5,
      first_mismatch: 6,
      message: expected,
      checkpoint: null,
      mismatched_checkpoint: 1,
      pending: null,
    });
    await expect(checkpointAuditTrail(db)).rejects.toThrow(expected);
    expect(await checkpoints(db)).toHaveLength(1);
  });

  it("and the checkpoint changed to match: its signature no longer does", async () => {
    const { db, url } = await trail(5);
    await checkpointAuditTrail(db);
    await rewriteFrom(db, 1, "rewritten from the start");
    const last = await db.selectFrom("audit_log").select("hash").where("id", "=", 5).executeTakeFirstOrThrow();
    await db.updateTable("audit_checkpoints").set({ through_hash: last.hash }).where("id", "=", 1).execute();

    const expected = "Audit trail: checkpoint 1 does not match: its signature does not match its content, so it was changed or made without AUDIT_KEY";
    expect(verifyProcess(url, KEY)).toMatchObject({ status: 1, stdout: `${expected}\n` });
    expect(auditChainLine(await checkSinceCheckpoint(db))).toBe(expected);
  });
});

describe("checkpoints that do not match", () => {
  it("one inserted with a signature not made with the key is reported by number", async () => {
    const { db, url } = await trail(4);
    await checkpointAuditTrail(db);
    const one = (await checkpoints(db))[0]!;
    const hash4 = (await db.selectFrom("audit_log").select("hash").where("id", "=", 4).executeTakeFirstOrThrow()).hash;
    const forged = { id: 2, through_id: 4, through_hash: hash4, made_at: new Date().toISOString(), key_id: auditKeyId(KEY), prev_signature: one.signature };
    // the table takes it (the next number): only the signature shows it was not made with the key
    await db
      .insertInto("audit_checkpoints")
      .values({ ...forged, signature: checkpointSignature(OTHER_KEY, forged) })
      .execute();
    const expected = "Audit trail: checkpoint 2 does not match: its signature does not match its content, so it was changed or made without AUDIT_KEY";
    expect(verifyProcess(url, KEY)).toMatchObject({ status: 1, stdout: `${expected}\n` });
    expect(auditChainLine(await checkSinceCheckpoint(db))).toBe(expected);
  });

  it("one removed from the middle is reported by the one after it", async () => {
    const { db, url } = await trail(2);
    for (const i of [3, 4]) {
      await checkpointAuditTrail(db);
      await append(db, `entry ${i}`);
    }
    await checkpointAuditTrail(db);
    expect(await checkpoints(db)).toHaveLength(3);
    await onOneConnection(db, [...UNGUARD, "delete from audit_checkpoints where id = 2"]);
    expect(verifyProcess(url, KEY)).toMatchObject({
      status: 1,
      stdout: "Audit trail: checkpoint 3 does not match: it does not follow the checkpoint before it, so checkpoints were removed or replaced\n",
    });
  });

  it("the table refuses a change, a removal and a number out of turn", async () => {
    const { db } = await trail(2);
    await checkpointAuditTrail(db);
    const refused = /audit_checkpoints is append-only/;
    await expect(sql`update audit_checkpoints set through_id = 1`.execute(db)).rejects.toThrow(refused);
    await expect(sql`delete from audit_checkpoints`.execute(db)).rejects.toThrow(refused);
    const row = (await checkpoints(db))[0]!;
    await expect(
      db
        .insertInto("audit_checkpoints")
        .values({ ...row, id: 5 })
        .execute(),
    ).rejects.toThrow(refused);
    if (TEST_DIALECT === "postgres") await expect(sql`truncate audit_checkpoints`.execute(db)).rejects.toThrow(refused);
    else await expect(db.insertInto("audit_checkpoints").orReplace().values(row).execute()).rejects.toThrow(refused);
    expect(await checkpoints(db)).toEqual([row]);
  });
});

describe("the key", () => {
  it("a wrong AUDIT_KEY is named as such, not as a forged checkpoint (exit 2), and none is made up", async () => {
    const { db, url } = await trail(3);
    await checkpointAuditTrail(db);
    const wrong = verifyProcess(url, OTHER_KEY);
    expect(wrong.status).toBe(2);
    expect(wrong.stdout).toBe(
      `Audit trail: checkpoint 1 was signed with a different AUDIT_KEY (key id ${auditKeyId(KEY)}) than the one given here (key id ${auditKeyId(OTHER_KEY)}), so no checkpoint can be checked: give the AUDIT_KEY the portal's servers sign with (if it is that key, the checkpoint was altered)\n`,
    );
    expect(wrong.stdout).not.toContain(KEY);
    expect(wrong.stdout).not.toContain(OTHER_KEY);
    const none = verifyProcess(url, null);
    expect(none).toMatchObject({ status: 2, madeKey: false });
    expect(none.stdout).toBe(
      "Audit trail: chain intact through entry 3, but its signed checkpoints were not checked: AUDIT_KEY is not set and data/audit-key does not exist here; give the key the portal's servers sign with\n",
    );
    // a malformed key is refused before anything is read
    const bad = verifyProcess(url, "not-a-key");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("AUDIT_KEY: must be 64 hex characters");
    // the page of a server with another key, and its job, which signs nothing
    expect(auditChainLine(await checkSinceCheckpoint(db, { key: OTHER_KEY }))).toMatch(/^Audit trail: checkpoint 1 was signed with a different AUDIT_KEY/);
    await append(db, "entry 4");
    await expect(checkpointAuditTrail(db, { key: OTHER_KEY })).rejects.toThrow(/signed with a different AUDIT_KEY/);
    expect(await checkpoints(db)).toHaveLength(1);
  });
});

describe("the page's check", () => {
  it("reads the checkpoint and at most its limit of entries after it", async () => {
    const { db } = await trail(4);
    await checkpointAuditTrail(db, { now: new Date("2026-12-04T09:00:00Z") });
    for (let i = 5; i <= 10; i++) await append(db, `entry ${i}`);
    const bounded = await checkSinceCheckpoint(db, { limit: 3 });
    expect(bounded).toEqual({
      intact: true,
      through: 7,
      entries: 3,
      checkpoint: { id: 1, through: 4, made_at: "2026-12-04T09:00:00.000Z" },
      checkpoints: null,
      pendingTo: 10,
    });
    expect(auditChainLine(bounded)).toBe(
      "Audit trail: chain intact through entry 7; signed checkpoint 1 covers entries 1 to 4; entries 8 to 10 wait for the next checkpoint",
    );
    const all = await checkSinceCheckpoint(db);
    expect(all).toMatchObject({ intact: true, through: 10, entries: 6, pendingTo: null });
    expect(auditChainLine(all)).toBe("Audit trail: chain intact through entry 10; signed checkpoint 1 covers entries 1 to 4");
    // a removed newest entry after the checkpoint is still found
    await onOneConnection(db, [...UNGUARD, "delete from audit_log where id = 10"]);
    expect(auditChainLine(await checkSinceCheckpoint(db))).toBe("Audit trail: entry 10 does not match: it was removed");
  });

  it("without a checkpoint, checks from the first entry up to its limit", async () => {
    const { db } = await trail(5);
    expect(auditChainLine(await checkSinceCheckpoint(db, { limit: 2 }))).toBe(
      "Audit trail: chain intact through entry 2; no signed checkpoint yet; entries 3 to 5 wait for the next checkpoint",
    );
    expect(auditChainLine(await checkSinceCheckpoint(db))).toBe("Audit trail: chain intact through entry 5; no signed checkpoint yet");
  });
});

describe("PostgreSQL's role split", () => {
  onPostgres("the portal's role signs checkpoints and cannot change or remove one", async () => {
    const owner = await trail(3);
    const role = `portal_cp_${crypto.randomBytes(4).toString("hex")}`;
    await grantAppRole(owner.db, role);
    const url = new URL(owner.url);
    url.username = role;
    const app = openDatabase(url.toString());
    try {
      expect(await checkpointAuditTrail(app)).toMatchObject({ checkpoint: 1 });
      await expect(sql`update audit_checkpoints set through_id = 1`.execute(app)).rejects.toThrow(/permission denied/);
      await expect(sql`delete from audit_checkpoints`.execute(app)).rejects.toThrow(/permission denied/);
      await expect(sql`truncate audit_checkpoints`.execute(app)).rejects.toThrow(/permission denied/);
      await expect(sql`alter table audit_checkpoints disable trigger user`.execute(app)).rejects.toThrow(/must be owner/);
    } finally {
      await app.destroy();
      await owner.cleanup();
      open.splice(open.indexOf(owner), 1);
      await withAdmin((c) => c.query(`drop role if exists ${role}`));
    }
  });
});

describe("the audit page's walk after the last checkpoint", () => {
  it("reads a trail longer than its walk in no more statements than a shorter one", async () => {
    const statements = async (entries: number) => {
      const { db } = await trail(entries);
      let count = 0;
      const counting = db.withPlugin({ transformQuery: ({ node }) => (count++, node), transformResult: async ({ result }) => result });
      // a walk of 3 in one batch of 3: at 4 entries the batch is full and ends where the walk does
      expect((await checkSinceCheckpoint(counting, { limit: 3 })).intact).toBe(true);
      return count;
    };
    expect(await statements(4)).toBe(await statements(2));
  });
});
