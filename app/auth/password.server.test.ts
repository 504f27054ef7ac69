import { describe, expect, it } from "vitest";
import {
  HASHING_RETRY_AFTER_SECONDS,
  hashingLoad,
  hashPassword,
  MAX_CONCURRENT_HASHES,
  MAX_WAITING_HASHES,
  sha256,
  verifyPassword,
} from "./password.server";

describe("password hashing", () => {
  it("stores scrypt with its parameters and a random salt, never the password", async () => {
    const a = await hashPassword("password123");
    const b = await hashPassword("password123");
    expect(a).toMatch(/^scrypt\$\d+\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toContain("password123");
    expect(a).not.toBe(b);
  });

  it("verifies the right password and rejects a wrong one", async () => {
    const hash = await hashPassword("correct horse");
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct horsf", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("treats unicode forms of the same password alike", async () => {
    const hash = await hashPassword("café");
    expect(await verifyPassword("cafe\u0301", hash)).toBe(true);
  });

  it("rejects a malformed stored hash instead of throwing", async () => {
    expect(await verifyPassword("x", "plaintext")).toBe(false);
    expect(await verifyPassword("x", "bcrypt$1$2$3")).toBe(false);
  });

  it("uses the OWASP cost unless told to be fast", async () => {
    const saved = process.env.FAST_PASSWORD_HASH;
    process.env.FAST_PASSWORD_HASH = "false";
    try {
      const strong = await hashPassword("password123");
      expect(strong.split("$")[1]).toBe(String(2 ** 17));
    } finally {
      process.env.FAST_PASSWORD_HASH = saved;
    }
  });

  it("hashes tokens with sha-256", () => {
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it(`hashes at most ${MAX_CONCURRENT_HASHES} at a time and refuses a flood beyond the queue with 503`, async () => {
    let peak = 0;
    const sample = setInterval(() => (peak = Math.max(peak, hashingLoad().active)), 1);
    const flood = 60;
    const results = await Promise.allSettled(Array.from({ length: flood }, (_, i) => hashPassword(`password-${i}`)));
    clearInterval(sample);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_CONCURRENT_HASHES + MAX_WAITING_HASHES);
    expect(refused).toHaveLength(flood - MAX_CONCURRENT_HASHES - MAX_WAITING_HASHES);
    expect(refused[0]!.reason).toMatchObject({ status: 503, retryAfterSeconds: HASHING_RETRY_AFTER_SECONDS });
    expect(peak).toBeLessThanOrEqual(MAX_CONCURRENT_HASHES);
    expect(hashingLoad()).toEqual({ active: 0, waiting: 0 });
    // once the flood has drained, hashing works again
    expect(await hashPassword("password123")).toMatch(/^scrypt\$/);
  });
});
