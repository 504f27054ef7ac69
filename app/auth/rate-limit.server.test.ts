import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { takeRequest } from "./rate-limit.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

describe("rate limit per client", () => {
  const rule = { scope: "test", limit: 3, windowSeconds: 60 };
  const at = (s: number) => new Date(Date.UTC(2026, 10, 23, 10, 0, s));

  it("allows the limit per window, refuses the rest, and starts again in the next window", async () => {
    const results = await Promise.all([0, 1, 2, 3, 4].map((s) => takeRequest(db, rule, "10.0.0.1", at(s))));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    expect(results.find((r) => !r.allowed)!.retryAfterSeconds).toBeGreaterThan(50);
    // another client is unaffected
    expect((await takeRequest(db, rule, "10.0.0.2", at(5))).allowed).toBe(true);
    expect((await takeRequest(db, rule, "10.0.0.1", new Date(at(0).getTime() + 61_000))).allowed).toBe(true);
  });
});
