import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DB } from "#db/connection";
import { call, type RouteModule } from "../support/api-calls";
import * as forgotPassword from "~/routes/_landing+/forgot-password";
import { createTestDb, useAsAppDb } from "../support/test-db";
import { makeUser } from "../support/factories";

/**
 * Without APP_URL, a reset link may only name this machine: a request whose Host header names
 * any other site gets the same neutral answer, but no mail leaves, no live token is put on
 * someone else's host, and the log says why.
 */
const outbox = path.resolve("tests/.tmp", `outbox-host-${process.pid}`);
let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  process.env.OUTBOX_DIR = outbox;
  delete process.env.APP_URL;
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(async () => {
  fs.rmSync(outbox, { recursive: true, force: true });
  await cleanup();
});

const route = forgotPassword as unknown as RouteModule;
const mails = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith(".eml")) : []);

async function requestReset(email: string, host: string) {
  return call(route, "POST", "/forgot-password", {
    body: new URLSearchParams({ email }).toString(),
    contentType: "application/x-www-form-urlencoded",
    origin: `http://${host}`,
  });
}

describe("reset links and the Host header", () => {
  it("a forged Host gets the neutral answer, and no mail is sent; the log says why", async () => {
    const { email } = await makeUser(db);
    const lines: string[] = [];
    const saved = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "info";
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const response = await requestReset(email, "attacker.example");
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      spy.mockRestore();
      process.env.LOG_LEVEL = saved;
    }
    expect(mails()).toHaveLength(0);
    expect(lines.join("")).not.toMatch(/attacker\.example\/reset-password/);
    expect(lines.some((l) => /"event":"password-reset-not-sent"/.test(l) && /APP_URL/.test(l))).toBe(true);
  });

  it("a request to this machine (localhost) still gets its link", async () => {
    const { email } = await makeUser(db);
    await requestReset(email, "localhost:3000");
    for (let i = 0; i < 50 && mails().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(mails()).toHaveLength(1);
    expect(fs.readFileSync(path.join(outbox, mails()[0]!), "utf8")).toContain("http://localhost:3000/reset-password/");
  });
});
