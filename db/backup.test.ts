import { execFileSync, fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase, databaseUrl, dropDatabase, uniqueDatabaseName } from "../tests/support/postgres-test-server";
import { createTestDb, TEST_DIALECT } from "../tests/support/test-db";
import { backupDatabase } from "./backup";
import { sqlitePathFromUrl } from "./connection";
import SQLite, { SQLITE_DRIVER_PATH } from "./sqlite-driver";

const created: string[] = [];
afterAll(() => {
  for (const f of created) for (const s of ["", "-wal", "-shm"]) fs.rmSync(f + s, { force: true });
});

const INSERT = "insert into events (id, actor_id, subject_user_id, type, entity_type, entity_id, message, created_at) values";

/** A separate process inserting events as fast as it can until killed. */
function startWriter(url: string) {
  const script =
    TEST_DIALECT === "postgres"
      ? `
    const pg = require(${JSON.stringify(require.resolve("pg"))});
    const client = new pg.Client({ connectionString: ${JSON.stringify(url)} });
    (async () => {
      await client.connect();
      let n = 0; process.send("ready");
      for (;;) {
        await client.query(${JSON.stringify(`${INSERT} ($1, null, null, 'load', 'system', null, 'write', $2)`)}, [require("crypto").randomUUID(), new Date().toISOString()]);
        if (++n % 200 === 0) process.send(n);
      }
    })();`
      : `
    const SQLite = require(${JSON.stringify(SQLITE_DRIVER_PATH)});
    const db = new SQLite(${JSON.stringify(sqlitePathFromUrl(url))});
    db.pragma("journal_mode = WAL"); db.pragma("busy_timeout = 5000");
    const insert = db.prepare(${JSON.stringify(`${INSERT} (?, null, null, 'load', 'system', null, 'write', ?)`)});
    let n = 0; process.send("ready");
    for (;;) { insert.run(require("crypto").randomUUID(), new Date().toISOString()); if (++n % 200 === 0) process.send(n); }
  `;
  const scriptFile = path.resolve("tests/.tmp", `writer-${process.pid}-${Date.now()}.cjs`);
  fs.writeFileSync(scriptFile, script);
  created.push(scriptFile);
  return fork(scriptFile, [], { stdio: "ignore" });
}

/** Counts in the backup: SQLite opens the copy; PostgreSQL restores it into a new database. */
async function countsInBackup(file: string): Promise<{ loadRows: number; users: number }> {
  if (TEST_DIALECT === "sqlite") {
    const copy = new SQLite(file, { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      const count = (q: string) => (copy.prepare(q).get() as { n: number }).n;
      return { loadRows: count("select count(*) as n from events where type = 'load'"), users: count("select count(*) as n from users") };
    } finally {
      copy.close();
    }
  }
  const name = uniqueDatabaseName("portal_restore");
  await createDatabase(name);
  try {
    execFileSync("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${databaseUrl(name)}`, file]);
    const client = new pg.Client({ connectionString: databaseUrl(name) });
    await client.connect();
    const count = async (q: string) => Number((await client.query<{ n: string }>(q)).rows[0]!.n);
    try {
      return { loadRows: await count("select count(*) as n from events where type = 'load'"), users: await count("select count(*) as n from users") };
    } finally {
      await client.end();
    }
  } finally {
    await dropDatabase(name);
  }
}

describe("online backup", () => {
  it("copies a database that is being written to, consistently and completely up to a point", async () => {
    const { url, cleanup } = await createTestDb({ seed: true });
    const writer = startWriter(url);
    let written = 0;
    writer.on("message", (m) => {
      if (typeof m === "number") written = m;
    });
    await new Promise<void>((resolve) => writer.once("message", () => resolve()));
    while (written < 1000) await new Promise((r) => setTimeout(r, 20));

    const destination = path.resolve("tests/.tmp", `backup-${Date.now()}.db`);
    created.push(destination);
    const result = await backupDatabase(url, destination);
    const writtenAfter = written;
    writer.kill("SIGKILL");

    expect(result.file).toBe(destination);
    expect(result.description).toMatch(TEST_DIALECT === "sqlite" ? /^[1-9]\d* pages, integrity ok$/ : /^pg_dump custom format, [1-9]\d* tables/);
    const { loadRows, users } = await countsInBackup(destination);
    expect(users).toBeGreaterThanOrEqual(15);
    expect(loadRows).toBeGreaterThanOrEqual(1000);
    expect(loadRows).toBeLessThanOrEqual(writtenAfter + 200);
    await cleanup();
  });

  it("refuses a database that does not exist", async () => {
    const missing = TEST_DIALECT === "sqlite" ? "file:/nonexistent/app.db" : databaseUrl(uniqueDatabaseName("portal_missing"));
    await expect(backupDatabase(missing, "tests/.tmp/x.db")).rejects.toThrow(TEST_DIALECT === "sqlite" ? /No database/ : /pg_dump failed: .*does not exist/);
  });
});
