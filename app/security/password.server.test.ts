import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  HASH_MEMORY_BUDGET,
  HASHING_RETRY_AFTER_SECONDS,
  hashingLoad,
  hashPassword,
  MAX_CONCURRENT_HASHES,
  MAX_WAITING_HASHES,
  needsRehash,
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
    expect(await verifyPassword("x", "scrypt$many$8$1$c2FsdA$aGFzaA")).toBe(false);
    expect(await verifyPassword("x", "scrypt$1024$0$1$c2FsdA$aGFzaA")).toBe(false);
    expect(hashingLoad()).toEqual({ active: 0, waiting: 0, memory: 0 });
  });

  it("uses the OWASP cost unless told to be fast", async () => {
    const saved = process.env.FAST_PASSWORD_HASH;
    process.env.FAST_PASSWORD_HASH = "false";
    try {
      const strong = await hashPassword("password123");
      // the floor's work in a quarter of its memory: 2^15 · 8 · 3
      expect(strong.split("$").slice(1, 4)).toEqual([String(2 ** 15), "8", "3"]);
      expect(needsRehash(strong)).toBe(false);
      expect(needsRehash(strong.replace(/^scrypt\$32768\$8\$3\$/, "scrypt$131072$8$1$"))).toBe(true);
    } finally {
      process.env.FAST_PASSWORD_HASH = saved;
    }
  });

  it(`keeps the hashes running within ${HASH_MEMORY_BUDGET / 2 ** 20} MiB: one made at the older 128 MiB cost runs alone`, async () => {
    const salt = crypto.randomBytes(16);
    const N = 2 ** 17;
    const key = crypto.scryptSync("old password", salt, 64, { N, r: 8, p: 1, maxmem: 256 * N * 8 });
    const older = ["scrypt", N, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
    const small = await hashPassword("small");
    let peakMemory = 0;
    let aloneWhenBig = true;
    const sample = setInterval(() => {
      const load = hashingLoad();
      peakMemory = Math.max(peakMemory, load.memory);
      if (load.memory > HASH_MEMORY_BUDGET && load.active !== 1) aloneWhenBig = false;
    }, 1);
    const results = await Promise.all([
      verifyPassword("small", small),
      verifyPassword("old password", older),
      verifyPassword("small", small),
      verifyPassword("old password", older),
      verifyPassword("small", small),
    ]);
    clearInterval(sample);
    expect(results).toEqual([true, true, true, true, true]);
    expect(peakMemory).toBe(128 * N * 8);
    expect(aloneWhenBig).toBe(true);
    expect(hashingLoad()).toEqual({ active: 0, waiting: 0, memory: 0 });
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
    expect(hashingLoad()).toEqual({ active: 0, waiting: 0, memory: 0 });
    // once the flood has drained, hashing works again
    expect(await hashPassword("password123")).toMatch(/^scrypt\$/);
  });
});
