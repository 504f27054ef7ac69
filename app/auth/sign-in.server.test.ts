import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { ACCOUNT_INACTIVE, AWAITING_APPROVAL, INVALID_CREDENTIALS, signIn, TOO_MANY_ATTEMPTS } from "./sign-in.server";
import { hashPassword, verifyPassword } from "~/security/password.server";
import { RATE_LIMITS } from "~/security/rate-limits.server";

const MAX_FAILURES_PER_EMAIL = RATE_LIMITS.signInAccount.limit;
const MAX_FAILURES_PER_CLIENT = RATE_LIMITS.signInClient.limit;

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

const attempt = (email: string, password: string, client = "10.0.0.1") => signIn(db, { email, password, client });

/** A hash of `password` made the way verifyPassword reads one, at the cost given. */
function hashAt(password: string, N: number, r: number, p: number): string {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(password, salt, 64, { N, r, p, maxmem: 256 * N * r });
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

describe("signIn", () => {
  it("hashes a password made at another cost again at today's when its owner signs in, and only then", async () => {
    const { id, email } = await makeUser(db);
    const older = hashAt("password123", 2 ** 11, 8, 1);
    await db.updateTable("users").set({ password_hash: older }).where("id", "=", id).execute();
    const stored = async () => (await db.selectFrom("users").select("password_hash").where("id", "=", id).executeTakeFirstOrThrow()).password_hash;
    await expect(attempt(email, "wrong-password")).rejects.toMatchObject({ status: 401 });
    expect(await stored()).toBe(older);
    await attempt(email, "password123");
    const fresh = await stored();
    expect(fresh).not.toBe(older);
    expect(fresh.split("$").slice(1, 4)).toEqual((await hashPassword("x")).split("$").slice(1, 4));
    expect(await verifyPassword("password123", fresh)).toBe(true);
    // made at today's cost, it stays as it is
    await attempt(email, "password123");
    expect(await stored()).toBe(fresh);
  });

  it("returns the user (without a hash) and records the login time", async () => {
    const { email } = await makeUser(db, { full_name: "Kim Lee" });
    const user = await attempt(email, "password123");
    expect(user.full_name).toBe("Kim Lee");
    expect(user).not.toHaveProperty("password_hash");
    expect(user.last_login).not.toBeNull();
  });

  it("gives the same message for an unknown email and a wrong password", async () => {
    const { email } = await makeUser(db);
    await expect(attempt(email, "wrong-password", "10.0.0.2")).rejects.toMatchObject({ status: 401, message: INVALID_CREDENTIALS });
    await expect(attempt("nobody@test.example", "password123", "10.0.0.2")).rejects.toMatchObject({
      status: 401,
      message: INVALID_CREDENTIALS,
    });
  });

  it("refuses pending and inactive accounts with the reason, only to someone who knows the password", async () => {
    const pending = await makeUser(db, { role: "trainer", approval_status: "pending" });
    const inactive = await makeUser(db, { is_active: false });
    await expect(attempt(pending.email, "password123", "10.0.0.3")).rejects.toMatchObject({ status: 403, message: AWAITING_APPROVAL });
    await expect(attempt(inactive.email, "password123", "10.0.0.3")).rejects.toMatchObject({ status: 403, message: ACCOUNT_INACTIVE });
    await expect(attempt(pending.email, "wrong-password", "10.0.0.3")).rejects.toMatchObject({ status: 401 });
  });

  it("refuses one email after repeated failures, even with the right password, from any client", async () => {
    const { email } = await makeUser(db);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) {
      await expect(attempt(email, "wrong", `10.1.0.${i}`)).rejects.toMatchObject({ status: 401 });
    }
    await expect(attempt(email, "password123", "10.1.1.1")).rejects.toMatchObject({ status: 429, message: TOO_MANY_ATTEMPTS });
  });

  it("refuses one client guessing across many emails, but not other clients", async () => {
    const { email } = await makeUser(db);
    for (let i = 0; i < MAX_FAILURES_PER_CLIENT; i++) {
      await expect(attempt(`guess-${i}@test.example`, "wrong", "10.9.9.9")).rejects.toMatchObject({ status: 401 });
    }
    await expect(attempt(email, "password123", "10.9.9.9")).rejects.toMatchObject({ status: 429 });
    await expect(attempt(email, "password123", "10.9.9.10")).resolves.toMatchObject({ email });
  });

  it("checks the rate limit before hashing: a refused attempt is fast", async () => {
    const { email } = await makeUser(db);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) await attempt(email, "wrong", "10.2.0.1").catch(() => {});
    const saved = process.env.FAST_PASSWORD_HASH;
    process.env.FAST_PASSWORD_HASH = "false";
    try {
      // measured against one real hash on this machine now, so a busy machine slows both alike
      const stored = await hashPassword("password123");
      const hashStarted = performance.now();
      await verifyPassword("password123", stored);
      const oneHash = performance.now() - hashStarted;
      const started = performance.now();
      await expect(attempt(email, "password123", "10.2.0.1")).rejects.toMatchObject({ status: 429 });
      expect(performance.now() - started).toBeLessThan(oneHash / 2);
    } finally {
      process.env.FAST_PASSWORD_HASH = saved;
    }
  });

  it("an owner's success gives a guesser elsewhere no more tries: at most 5 wrong passwords are evaluated per account in the window", async () => {
    const { email } = await makeUser(db);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i++) await expect(attempt(email, "wrong", "10.3.0.1")).rejects.toMatchObject({ status: 401 });
    await attempt(email, "password123", "10.3.0.2");
    // the fifth wrong password is evaluated, then no more, from that client or another stranger
    await expect(attempt(email, "wrong", "10.3.0.3")).rejects.toMatchObject({ status: 401 });
    await expect(attempt(email, "wrong", "10.3.0.3")).rejects.toMatchObject({ status: 429 });
    await expect(attempt(email, "wrong", "10.3.0.5")).rejects.toMatchObject({ status: 429 });
    // the owner, on the client that signed in before, still gets in, and its own mistakes clear on success
    await expect(attempt(email, "wrong", "10.3.0.2")).rejects.toMatchObject({ status: 401 });
    await expect(attempt(email, "password123", "10.3.0.2")).resolves.toMatchObject({ email });
  });
});
