import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

describe("environment", () => {
  it("applies the contract's defaults", () => {
    const env = parseEnv({ SESSION_SECRET: "s".repeat(32) });
    expect(env).toMatchObject({ PORT: 3000, DATABASE_URL: "file:./data/app.db", SEED_DEMO: true, CHROMIUM_PATH: "/usr/bin/chromium" });
  });

  it("names every bad variable in one message", () => {
    expect(() => parseEnv({ PORT: "eighty", DATABASE_URL: "mysql://x", SEED_DEMO: "maybe", SESSION_SECRET: "short" })).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*SESSION_SECRET[\s\S]*SEED_DEMO|PORT[\s\S]*DATABASE_URL[\s\S]*SEED_DEMO[\s\S]*SESSION_SECRET/,
    );
  });

  it("reads SEED_DEMO=false", () => {
    expect(parseEnv({ SESSION_SECRET: "s".repeat(32), SEED_DEMO: "false" }).SEED_DEMO).toBe(false);
  });

  it("generates a session secret once under data/ when none is set", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-"));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const a = parseEnv({}).SESSION_SECRET;
      const b = parseEnv({}).SESSION_SECRET;
      expect(a).toHaveLength(64);
      expect(b).toBe(a);
      expect(fs.readFileSync(path.join(dir, "data", "session-secret"), "utf8")).toBe(a);
    } finally {
      process.chdir(cwd);
    }
  });
});
