import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { isLoopbackHost } from "~/env.server";
import { createTestDb } from "../../tests/support/test-db";
import {
  accountsWithDemoPassword,
  demoLockAtStart,
  demoMode,
  isPublicDeployment,
  listenRefusal,
  lockDemoToLoopback,
  namedAccounts,
  OFF_LOOPBACK,
  refuseOffLoopback,
  setDemoAccounts,
  summariseDemoAccounts,
} from "./demo-lock.server";

/**
 * Fail closed: a server whose database still has demo accounts binds to loopback and answers
 * only requests from this machine addressed to a loopback name; without them, it is untouched.
 */
let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (refuseOffLoopback(req, res)) return;
    res.end("served");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => setDemoAccounts([]));

function get(host: string, path = "/"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, headers: { Host: host, "X-Forwarded-For": "127.0.0.1" } }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the demo lock", () => {
  it("carries a summary of the demo accounts, never the whole list (a large demo database has 20,000)", () => {
    const emails = Array.from({ length: 20_000 }, (_, i) => `learner${i}@example.com`);
    const summary = summariseDemoAccounts(emails);
    expect(summary.count).toBe(20_000);
    expect(JSON.stringify(summary).length).toBeLessThan(1_000);
    expect(namedAccounts(summary).at(-1)).toBe("  … and 19980 more");
  });

  it("while demo accounts exist, a request addressed to another host is refused (421), whatever X-Forwarded-For says", async () => {
    setDemoAccounts(["admin@example.com"]);
    expect(await get("evil.example")).toEqual({ status: 421, body: OFF_LOOPBACK });
    expect((await get("portal.example.com", "/api/courses")).body).toBe(JSON.stringify({ detail: OFF_LOOPBACK }));
    expect((await get(`10.0.0.5:${port}`)).status).toBe(421);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "LOCALHOST"]) {
      expect(await get(host), host).toEqual({ status: 200, body: "served" });
    }
  });

  it("without demo accounts every host is served", async () => {
    expect(demoMode()).toBe(false);
    expect(await get("portal.example.com")).toEqual({ status: 200, body: "served" });
  });

  it("calls a deployment public when APP_URL names a host other than this machine", () => {
    expect(isPublicDeployment({})).toBe(false);
    for (const local of ["http://localhost:3000", "http://127.0.0.1", "http://[::1]:8080/", "http://LOCALHOST"]) {
      expect(isPublicDeployment({ APP_URL: local }), local).toBe(false);
    }
    for (const remote of ["https://rto.example.com", "http://10.0.0.5:3000", "https://localhost.example.com", "http://127.0.0.1.nip.io"]) {
      expect(isPublicDeployment({ APP_URL: remote }), remote).toBe(true);
    }
  });

  it("has one loopback rule: a host is this machine or public, never both", () => {
    for (const url of [
      "http://localhost:3000",
      "http://127.0.0.1",
      "http://127.0.0.2:8080",
      "http://127.255.0.9",
      "http://[::1]",
      "https://rto.example.com",
      "http://10.0.0.5",
      "http://127.0.0.1.nip.io",
    ]) {
      const hostname = new URL(url).hostname;
      expect(isPublicDeployment({ APP_URL: url }), url).toBe(!isLoopbackHost(hostname));
    }
  });

  it("refuses to listen on an interface other than loopback while demo accounts exist", () => {
    const accounts = summariseDemoAccounts(["admin@example.com"]);
    expect(listenRefusal(accounts, "0.0.0.0")).toMatch(/^Refusing to listen on 0\.0\.0\.0: 1 account\(s\) still have the demo password/);
    for (const host of [undefined, "127.0.0.1", "127.0.0.2", "localhost", "[::1]", "::1"]) expect(listenRefusal(accounts, host), host).toBeNull();
    expect(listenRefusal(summariseDemoAccounts([]), "0.0.0.0")).toBeNull();
  });

  describe("at start", () => {
    let db: DB;
    let cleanup: () => Promise<void>;
    const host = process.env.HOST;
    beforeAll(async () => {
      ({ db, cleanup } = await createTestDb({ seed: true }));
    });
    afterAll(async () => {
      if (host === undefined) delete process.env.HOST;
      else process.env.HOST = host;
      await cleanup();
    });

    it("a database with demo accounts holds the server to loopback", async () => {
      delete process.env.HOST;
      await lockDemoToLoopback(db);
      expect(demoMode()).toBe(true);
      expect(process.env.HOST).toBe("127.0.0.1");
    });

    it("counts a large demo set's accounts on one shared hash in the database and names the first 20 by email", async () => {
      const demo = await db.selectFrom("users").select("password_hash").where("email", "=", "admin@example.com").executeTakeFirstOrThrow();
      const before = await accountsWithDemoPassword(db);
      // learners of a large set: not example.com, one hash between them, the demo password's
      const rows = Array.from({ length: 3_000 }, (_, i) => ({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        email: `bulk${String(i).padStart(5, "0")}@students.test`,
        full_name: `Bulk ${i}`,
        password_hash: demo.password_hash,
        role: "student" as const,
        updated_at: "2026-01-01T00:00:00.000Z",
        is_active: 1,
        approval_status: "approved" as const,
      }));
      for (let i = 0; i < rows.length; i += 500)
        await db
          .insertInto("users")
          .values(rows.slice(i, i + 500))
          .execute();
      // and two sharing a hash that is not the demo password's
      await db
        .insertInto("users")
        .values(
          [0, 1].map((i) => ({
            id: `00000000-0000-4000-9000-00000000000${i}`,
            email: `other${i}@students.test`,
            full_name: "Other",
            password_hash: "scrypt$not-the-demo",
            role: "student" as const,
            updated_at: "2026-01-01T00:00:00.000Z",
            is_active: 1,
            approval_status: "approved" as const,
          })),
        )
        .execute();
      const after = await accountsWithDemoPassword(db);
      expect(after.count).toBe(before.count + 3_000);
      expect(after.sample).toHaveLength(20);
      expect(after.sample).toEqual([...after.sample].sort());
      expect(after.sample.some((e) => e.startsWith("other"))).toBe(false);
      await db.deleteFrom("users").where("email", "like", "%@students.test").execute();
    });

    it("takes npm start's finding when it comes with one, without hashing again", async () => {
      delete process.env.HOST;
      process.env.DEMO_ACCOUNTS = JSON.stringify({ count: 20_000, sample: ["someone@example.com"] });
      try {
        await lockDemoToLoopback(db);
        expect(demoMode()).toBe(true);
        expect(process.env.HOST).toBe("127.0.0.1");
      } finally {
        delete process.env.DEMO_ACCOUNTS;
      }
    });

    it("npm start's check: a public deployment or another interface is refused while demo accounts exist", async () => {
      await expect(demoLockAtStart(db, { APP_URL: "https://rto.example.com" })).rejects.toThrow(
        /^Refusing to start: this is a public deployment \(APP_URL=https:\/\/rto\.example\.com\) and \d+ account\(s\) still have the demo password:\n {2}admin@example\.com/,
      );
      await expect(demoLockAtStart(db, { HOST: "0.0.0.0" })).rejects.toThrow(/^Refusing to listen on 0\.0\.0\.0/);
      const found = await demoLockAtStart(db, { APP_URL: "http://127.0.0.2:3000", HOST: "127.0.0.1" });
      expect(found.sample).toContain("admin@example.com");
      expect(found.count).toBeGreaterThanOrEqual(found.sample.length);
    });

    it("once the demo passwords are changed, nothing is held", async () => {
      delete process.env.HOST;
      await db.updateTable("users").set({ password_hash: "scrypt$changed" }).execute();
      await lockDemoToLoopback(db);
      expect(demoMode()).toBe(false);
      expect(process.env.HOST).toBeUndefined();
    });

    it("npm start's check passes a public deployment once no account has the demo password", async () => {
      expect(await demoLockAtStart(db, { APP_URL: "https://rto.example.com", HOST: "0.0.0.0" })).toEqual({ count: 0, sample: [] });
    });
  });
});
