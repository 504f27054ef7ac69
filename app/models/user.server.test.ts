import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { RATE_LIMITS } from "~/security/rate-limits.server";
import { createTestDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { EMAIL_TAKEN, registerUser } from "./user.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

const input = (email: string) => ({
  full_name: "Kim Lee",
  email,
  password: "Rigging-Kestrel-42",
  role: "student" as const,
  phone: null,
  address: null,
  date_of_birth: null,
  emergency_contact: null,
});

/** Runs with the real (slow, 128 MiB) password hash. */
async function withStrongHashing<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.FAST_PASSWORD_HASH;
  process.env.FAST_PASSWORD_HASH = "false";
  try {
    return await fn();
  } finally {
    process.env.FAST_PASSWORD_HASH = saved;
  }
}

describe("registerUser", () => {
  it("refuses a taken email before hashing the password (fast, even with the strong hash)", async () => {
    const { email } = await makeUser(db);
    await withStrongHashing(async () => {
      const started = performance.now();
      await expect(registerUser(db, input(email))).rejects.toMatchObject({ status: 409, message: EMAIL_TAKEN });
      expect(performance.now() - started).toBeLessThan(100);
    });
  });

  it("counts self-registrations per client before anything else, and a refused one costs no hash", async () => {
    for (let i = 0; i < RATE_LIMITS.registration.limit; i++) {
      await registerUser(db, input(`reg-${i}@test.example`), { client: "10.8.0.1" });
    }
    await withStrongHashing(async () => {
      const started = performance.now();
      await expect(registerUser(db, input("reg-late@test.example"), { client: "10.8.0.1" })).rejects.toMatchObject({ status: 429 });
      expect(performance.now() - started).toBeLessThan(100);
    });
    await expect(registerUser(db, input("reg-other@test.example"), { client: "10.8.0.2" })).resolves.toMatchObject({ pending: false });
  });
});
