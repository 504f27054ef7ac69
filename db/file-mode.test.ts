import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { backupDatabase } from "./backup";
import { openDatabase } from "./connection";

const dir = path.resolve("tests/.tmp", `modes-${crypto.randomUUID()}`);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe("database files are readable by their owner only", () => {
  it("creates the database, its -wal and -shm, and backups with mode 0600 whatever the umask", async () => {
    const previous = process.umask(0o022);
    try {
      const file = path.join(dir, "app.db");
      const db = openDatabase(`file:${file}`);
      await sql`create table t (x text)`.execute(db);
      await sql`insert into t values ('learner')`.execute(db);
      for (const suffix of ["", "-wal", "-shm"]) expect(modeOf(file + suffix), suffix || "database").toBe(0o600);
      const copy = path.join(dir, "backups", "copy.db");
      await backupDatabase(`file:${file}`, copy);
      expect(modeOf(copy)).toBe(0o600);
      await db.destroy();
    } finally {
      process.umask(previous);
    }
  });

  it("tightens a database file an older version left world-readable", async () => {
    const file = path.join(dir, "old.db");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, "", { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const db = openDatabase(`file:${file}`);
    await sql`select 1`.execute(db);
    expect(modeOf(file)).toBe(0o600);
    await db.destroy();
  });
});
