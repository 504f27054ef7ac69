import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import SQLite from "../db/sqlite-driver";
import { deploymentScript } from "../tests/support/deployment-scripts";
import { createTestDb, TEST_DIALECT } from "../tests/support/test-db";

/**
 * The start-up rules of a real deployment, run as `npm start` and `npm run admin:create` run
 * them (the build's scripts, scripts/build.mjs, each in a process of its own): a public APP_URL
 * never gets demo data and refuses to start while any account has the demo password;
 * `npm run admin:create` makes the first administrator.
 */
const dir = path.resolve("tests/.tmp", `prepare-${crypto.randomUUID()}`);
fs.mkdirSync(dir, { recursive: true });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs a command (its program and first arguments) with these variables set or, when undefined, unset. */
function run([program, ...first]: string[], env: Record<string, string | undefined>, args: string[] = []) {
  const childEnv = { ...process.env };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  const result = spawnSync(program!, [...first, ...args], { env: childEnv, encoding: "utf8", input: "", timeout: 60_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
const prepare = (env: Record<string, string | undefined>) => run([process.execPath, deploymentScript("prepare")], env);
const adminCreate = (env: Record<string, string | undefined>, args: string[]) => run([process.execPath, deploymentScript("admin-create")], env, args);
const freshDb = () => path.join(dir, `${crypto.randomUUID()}.db`);
const users = (file: string) => {
  const db = new SQLite(file, { readonly: true });
  try {
    return db.prepare("select email, role, is_active, approval_status, password_hash from users order by email").all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
};
const PUBLIC = { APP_URL: "https://rto.example.com", SMTP_URL: undefined };

/**
 * The tests on a file of their own make it SQLite whatever the project: the PostgreSQL project
 * runs only the one on its own database (each start here is a process that migrates and seeds).
 */
const onFile = it.skipIf(TEST_DIALECT === "postgres");

describe("starting a deployment", { timeout: 120_000 }, () => {
  onFile("without APP_URL, an empty database gets the demo organisation", () => {
    const file = freshDb();
    const result = prepare({ DATABASE_URL: `file:${file}`, APP_URL: undefined, SMTP_URL: undefined });
    expect(result.status, result.output).toBe(0);
    expect(users(file).map((u) => u.email)).toContain("admin@example.com");
  });

  onFile("a public deployment starts on an empty database without seeding anything", () => {
    const file = freshDb();
    const result = prepare({ DATABASE_URL: `file:${file}`, ...PUBLIC });
    expect(result.status, result.output).toBe(0);
    expect(result.output).toMatch(/demo data is never seeded/);
    expect(users(file)).toEqual([]);
  });

  it("a public deployment refuses to start while demo accounts exist, naming them", async () => {
    const { url, cleanup } = await createTestDb({ seed: true });
    try {
      const result = prepare({ DATABASE_URL: url, ...PUBLIC });
      expect(result.status).toBe(1);
      expect(result.output).toMatch(/Refusing to start: this is a public deployment \(APP_URL=https:\/\/rto\.example\.com\)/);
      expect(result.output).toContain("admin@example.com");
      expect(result.output).toContain("student@example.com");
    } finally {
      await cleanup();
    }
  });

  onFile("admin:create makes an active, approved administrator without printing the password; the public start then succeeds", () => {
    const file = freshDb();
    const secret = "Tr1cky-Secret-Pass";
    const created = adminCreate({ DATABASE_URL: `file:${file}`, ADMIN_PASSWORD: secret, ...PUBLIC }, [
      "--email",
      "Head.Office@Summit.example",
      "--name",
      "Robin Head",
    ]);
    expect(created.status, created.output).toBe(0);
    expect(created.output).not.toContain(secret);
    const [admin] = users(file);
    expect(admin).toMatchObject({ email: "head.office@summit.example", role: "admin", is_active: 1, approval_status: "approved" });
    expect(String(admin!.password_hash)).not.toContain(secret);
    const started = prepare({ DATABASE_URL: `file:${file}`, ...PUBLIC });
    expect(started.status, started.output).toBe(0);
  });

  onFile("admin:create refuses the demo password and a taken email", () => {
    const file = freshDb();
    const args = ["--email", "boss@summit.example", "--name", "Boss"];
    const demo = adminCreate({ DATABASE_URL: `file:${file}`, ADMIN_PASSWORD: "password123", ...PUBLIC }, args);
    expect(demo.status).toBe(1);
    expect(demo.output).toMatch(/other than the demo password/);
    // the password rule of every other path: not a common password, 12 characters for staff
    const common = adminCreate({ DATABASE_URL: `file:${file}`, ADMIN_PASSWORD: "qwerty123456", ...PUBLIC }, args);
    expect(common.status).toBe(1);
    expect(common.output).toMatch(/This password is too common/);
    const short = adminCreate({ DATABASE_URL: `file:${file}`, ADMIN_PASSWORD: "Kestrel-77x", ...PUBLIC }, args);
    expect(short.status).toBe(1);
    expect(short.output).toMatch(/at least 12 characters/);
    expect(adminCreate({ DATABASE_URL: `file:${file}`, ADMIN_PASSWORD: "a-good-one-1", ...PUBLIC }, args).status).toBe(0);
    const again = adminCreate({ DATABASE_URL: `file:${file}`, ADMIN_PASSWORD: "a-good-one-2", ...PUBLIC }, args);
    expect(again.status).toBe(1);
    expect(again.output).toMatch(/already exists/);
  });

  onFile("fail closed: with demo accounts, a HOST other than loopback refuses to start, naming them, whatever NODE_ENV says", () => {
    for (const NODE_ENV of ["production", "development"]) {
      const file = freshDb();
      const base = { DATABASE_URL: `file:${file}`, APP_URL: undefined, SMTP_URL: undefined, NODE_ENV };
      const exposed = prepare({ ...base, HOST: "0.0.0.0" });
      expect(exposed.status, exposed.output).toBe(1);
      expect(exposed.output).toMatch(/Refusing to listen on 0\.0\.0\.0: \d+ account\(s\) still have the demo password/);
      expect(exposed.output).toContain("admin@example.com");
      for (const HOST of NODE_ENV === "production" ? [undefined, "::1"] : []) {
        const local = prepare({ ...base, HOST });
        expect(local.status, `${HOST}: ${local.output}`).toBe(0);
      }
    }
  });

  onFile("SMTP_URL without APP_URL refuses to start with a clear message", () => {
    const result = prepare({ DATABASE_URL: `file:${freshDb()}`, APP_URL: undefined, SMTP_URL: "smtp://mail.example.com:587" });
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/SMTP_URL is set but APP_URL is not/);
  });
});
