import { fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDb } from "../tests/support/test-db";
import { backupDatabase } from "./backup";

const created: string[] = [];
afterAll(() => {
  for (const f of created) for (const s of ["", "-wal", "-shm"]) fs.rmSync(f + s, { force: true });
});

/** A separate process inserting events as fast as it can until killed. */
function startWriter(file: string) {
  const script = `
    const SQLite = require(${JSON.stringify(require.resolve("better-sqlite3"))});
    const db = new SQLite(${JSON.stringify(file)});
    db.pragma("journal_mode = WAL"); db.pragma("busy_timeout = 5000");
    const insert = db.prepare("insert into events (id, actor_id, subject_user_id, type, entity_type, entity_id, message, created_at) values (?, null, null, 'load', 'system', null, 'write', ?)");
    let n = 0; process.send("ready");
    for (;;) { insert.run(require("crypto").randomUUID(), new Date().toISOString()); if (++n % 200 === 0) process.send(n); }
  `;
  const scriptFile = path.resolve("tests/.tmp", `writer-${process.pid}-${Date.now()}.cjs`);
  fs.writeFileSync(scriptFile, script);
  created.push(scriptFile);
  return fork(scriptFile, [], { stdio: "ignore" });
}

describe("online backup", () => {
  it("copies a database that is being written to, consistently and completely up to a point", async () => {
    const { file, cleanup } = await createTestDb({ seed: true });
    const writer = startWriter(file);
    let written = 0;
    writer.on("message", (m) => {
      if (typeof m === "number") written = m;
    });
    await new Promise<void>((resolve) => writer.once("message", () => resolve()));
    while (written < 1000) await new Promise((r) => setTimeout(r, 20));

    const destination = path.resolve("tests/.tmp", `backup-${Date.now()}.db`);
    created.push(destination);
    const result = await backupDatabase(`file:${file}`, destination);
    const writtenAfter = written;
    writer.kill("SIGKILL");

    expect(result.pages).toBeGreaterThan(0);
    const copy = new SQLite(destination, { readonly: true });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    const loadRows = (copy.prepare("select count(*) as n from events where type = 'load'").get() as { n: number }).n;
    const users = (copy.prepare("select count(*) as n from users").get() as { n: number }).n;
    copy.close();
    expect(users).toBeGreaterThanOrEqual(15);
    expect(loadRows).toBeGreaterThanOrEqual(1000);
    expect(loadRows).toBeLessThanOrEqual(writtenAfter + 200);
    await cleanup();
  });

  it("refuses a database that does not exist", async () => {
    await expect(backupDatabase("file:/nonexistent/app.db", "tests/.tmp/x.db")).rejects.toThrow(/No database/);
  });
});
