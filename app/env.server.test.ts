import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { existingAuditKey, parseEnv, parseSettings } from "./env.server";

describe("environment", () => {
  it("applies the documented defaults", () => {
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
      // the authenticator secrets' key is kept the same way, in a file of its own
      const key = parseEnv({}).TWO_STEP_KEY;
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(key).not.toBe(a);
      expect(parseEnv({}).TWO_STEP_KEY).toBe(key);
      expect(fs.statSync(path.join(dir, "data", "two-step-key")).mode & 0o777).toBe(0o600);
      // and the audit trail's signing key, in one more
      const auditKey = parseEnv({}).AUDIT_KEY;
      expect(auditKey).toMatch(/^[0-9a-f]{64}$/);
      expect([a, key]).not.toContain(auditKey);
      expect(parseEnv({}).AUDIT_KEY).toBe(auditKey);
      expect(fs.statSync(path.join(dir, "data", "audit-key")).mode & 0o777).toBe(0o600);
    } finally {
      process.chdir(cwd);
    }
  });

  it("takes TWO_STEP_KEY as 64 hex characters and names it when it is anything else", () => {
    const key = "ab".repeat(32);
    expect(parseEnv({ SESSION_SECRET: "s".repeat(32), TWO_STEP_KEY: key }).TWO_STEP_KEY).toBe(key);
    expect(() => parseEnv({ SESSION_SECRET: "s".repeat(32), TWO_STEP_KEY: "too-short" })).toThrow(/TWO_STEP_KEY: must be 64 hex characters/);
  });

  it("takes AUDIT_KEY as 64 hex characters, and a reader of the trail finds the key without ever making one", () => {
    const key = "cd".repeat(32);
    expect(parseEnv({ SESSION_SECRET: "s".repeat(32), AUDIT_KEY: key }).AUDIT_KEY).toBe(key);
    expect(() => parseEnv({ SESSION_SECRET: "s".repeat(32), AUDIT_KEY: "not-hex" })).toThrow(/AUDIT_KEY: must be 64 hex characters/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-audit-"));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(existingAuditKey(parseSettings({ AUDIT_KEY: key }))).toBe(key);
      expect(existingAuditKey(parseSettings({}))).toBeNull();
      expect(fs.existsSync(path.join(dir, "data", "audit-key"))).toBe(false);
      const generated = parseEnv({}).AUDIT_KEY;
      expect(existingAuditKey(parseSettings({}))).toBe(generated);
    } finally {
      process.chdir(cwd);
    }
  });

  it("refuses SMTP_URL without APP_URL, so no mail ever takes its links from a request", () => {
    expect(() => parseEnv({ SESSION_SECRET: "s".repeat(32), SMTP_URL: "smtp://mail.example.com:587" })).toThrow(/SMTP_URL is set but APP_URL is not/);
    expect(parseEnv({ SESSION_SECRET: "s".repeat(32), SMTP_URL: "smtp://mail.example.com:587", APP_URL: "https://rto.example.com" }).SMTP_URL).toBe(
      "smtp://mail.example.com:587",
    );
  });

  it("keeps the generated session secret readable by its owner only, tightening an older file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-mode-"));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      parseEnv({});
      const file = path.join(dir, "data", "session-secret");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      fs.chmodSync(file, 0o644);
      parseEnv({});
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      process.chdir(cwd);
    }
  });
});
