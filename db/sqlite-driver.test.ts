import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import SQLite, { SQLITE_DRIVER, SQLITE_DRIVER_PATH, sqliteDriverFor } from "./sqlite-driver";

describe("the SQLite driver", () => {
  it("is better-sqlite3 13 where Node-API 10 is there (Node 22, 24), 12 below it (Node 20)", () => {
    expect(sqliteDriverFor("10")).toBe("better-sqlite3");
    expect(sqliteDriverFor("11")).toBe("better-sqlite3");
    expect(sqliteDriverFor("9")).toBe("better-sqlite3-node20");
    expect(sqliteDriverFor(undefined)).toBe("better-sqlite3-node20");
    const { version } = createRequire(import.meta.url)(`${SQLITE_DRIVER}/package.json`) as { version: string };
    expect(version.split(".")[0]).toBe(Number(process.versions.napi) >= 10 ? "13" : "12");
  });

  it("opens, writes and reads a database", () => {
    const db = new SQLite(":memory:");
    try {
      db.exec("create table t (n integer)");
      db.prepare("insert into t values (?)").run(41);
      expect(db.prepare("select n + 1 as n from t").get()).toEqual({ n: 42 });
    } finally {
      db.close();
    }
  });

  // better-sqlite3 12 built for Node 24 aborts the process at a young-generation collection that
  // frees statements ("Assertion failed: (env) != nullptr" in Statement::~Statement), as `npm
  // start` did. Rounds of statements between allocations of growing size reach such a collection
  // every time (--expose-gc and gc() would hide the crash).
  it("survives the garbage collector freeing many statements, in a process of its own", () => {
    const script = `
      const SQLite = require(${JSON.stringify(SQLITE_DRIVER_PATH)});
      const db = new SQLite(":memory:");
      let sum = 0;
      for (let round = 1; round <= 40; round++) {
        for (let i = 0; i < 2500; i++) {
          sum += db.prepare("select " + i + " as n").get().n;
          if (i % round === 0) new Array(round * 8).fill(i);
        }
      }
      db.close();
      console.log(sum);
    `;
    const child = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 60_000 });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe(String(40 * ((2499 * 2500) / 2)));
  });

  it("is the only way in: no other module loads better-sqlite3 itself", () => {
    const loads = /from\s+["']better-sqlite3["']|require\(\s*["']better-sqlite3["']\s*\)|import\(\s*["']better-sqlite3["']\s*\)/;
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(file);
        } else if (/\.(ts|tsx|mjs|js|cjs)$/.test(entry.name) && file !== path.join("db", "sqlite-driver.ts") && loads.test(fs.readFileSync(file, "utf8"))) {
          offenders.push(file);
        }
      }
    };
    for (const dir of ["app", "db", "migrations", "scripts", "tests"]) walk(dir);
    expect(offenders).toEqual([]);
  });
});
