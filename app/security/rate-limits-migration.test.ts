import { Migrator } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import type { AnyDb } from "#db/dialect";
import { migrateToLatest } from "#db/migrate";
import { migrations } from "#migrations/index";
import { createTestDb } from "../../tests/support/test-db";
import { isKnownClient, RATE_LIMITS, takeRateLimit } from "./rate-limits.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

const REQUEST_LIMITS_MIGRATION = "2026-11-26T0800_request_limits";
const MIN = 60_000;

describe("migration 2026-11-26T0800_request_limits on a database in use", () => {
  it("moves what still counts from the four old tables into request_limits, and known clients back on the way down", async () => {
    const names = Object.keys(migrations);
    const before = names[names.indexOf(REQUEST_LIMITS_MIGRATION) - 1]!;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(before)).error).toBeUndefined();

    const now = Date.now();
    const ago = (minutes: number) => new Date(now - minutes * MIN).toISOString();
    // the four tables this migration drops are not in today's schema: reach them untyped
    const old = db as unknown as AnyDb;
    await old
      .insertInto("sign_in_attempts")
      .values([
        // the owner's browser signed in two days ago; another pair 100 days ago, too long to count
        { email: "owner@test.example", client: "10.0.0.1", succeeded: 1, attempted_at: ago(2 * 24 * 60) },
        { email: "stale@test.example", client: "10.0.0.2", succeeded: 1, attempted_at: ago(100 * 24 * 60) },
        // a stranger's three guesses and the owner's own slip, all in the window
        ...[1, 2, 3].map((m) => ({ email: "owner@test.example", client: "10.0.0.9", succeeded: 0, attempted_at: ago(m) })),
        { email: "owner@test.example", client: "10.0.0.1", succeeded: 0, attempted_at: ago(4) },
        // older than the window
        { email: "owner@test.example", client: "10.0.0.9", succeeded: 0, attempted_at: ago(30) },
      ])
      .execute();
    await old
      .insertInto("client_requests")
      .values(Array.from({ length: 10 }, (_, i) => ({ action: "register", client: "10.0.0.3", requested_at: ago(i + 1) })))
      .execute();
    const fixedWindowStart = (seconds: number) => new Date(Math.floor(now / (seconds * 1000)) * seconds * 1000).toISOString();
    await old
      .insertInto("request_counts")
      .values([
        { scope: "verify", client: "10.0.0.4", window_start: fixedWindowStart(600), n: 45 },
        { scope: "verify", client: "10.0.0.5", window_start: ago(30), n: 45 },
        { scope: "second-step", client: "user-1", window_start: fixedWindowStart(900), n: 5 },
      ])
      .execute();
    await old
      .insertInto("password_reset_requests")
      .values([
        ...[1, 2, 3].map((m) => ({ email: "a@test.example", client: "10.0.0.6", requested_at: ago(m), known: 0 })),
        ...[4, 5, 6].map((m) => ({ email: "b@test.example", client: `10.0.1.${m}`, requested_at: ago(m), known: 0 })),
        { email: "b@test.example", client: "10.0.2.1", requested_at: ago(7), known: 1 },
        { email: "b@test.example", client: "10.0.2.2", requested_at: ago(90), known: 0 },
      ])
      .execute();

    await migrateToLatest(db);

    const tables = (await db.introspection.getTables()).map((t) => t.name);
    for (const gone of ["sign_in_attempts", "client_requests", "request_counts", "password_reset_requests"]) expect(tables).not.toContain(gone);
    const counts = await db
      .selectFrom("request_limits")
      .select(["rule", "key", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy(["rule", "key"])
      .orderBy("rule")
      .orderBy("key")
      .execute();
    expect(counts.map((c) => `${c.rule} ${c.key}: ${Number(c.n)}`)).toEqual([
      "known-client owner@test.example 10.0.0.1: 1",
      "registration 10.0.0.3: 10",
      "reset:client 10.0.0.6: 3",
      "reset:client 10.0.1.4: 1",
      "reset:client 10.0.1.5: 1",
      "reset:client 10.0.1.6: 1",
      "reset:client 10.0.2.1: 1",
      "reset:email a@test.example 10.0.0.6: 3",
      "reset:email b@test.example 10.0.1.4: 1",
      "reset:email b@test.example 10.0.1.5: 1",
      "reset:email b@test.example 10.0.1.6: 1",
      "reset:email b@test.example 10.0.2.1: 1",
      "reset:strangers a@test.example: 3",
      "reset:strangers b@test.example: 3",
      "second-step user-1: 5",
      "sign-in:account owner@test.example: 3",
      "sign-in:client 10.0.0.1: 1",
      "sign-in:client 10.0.0.9: 3",
      "sign-in:known-client owner@test.example 10.0.0.1: 1",
      "verification 10.0.0.4: 30",
    ]);

    // and the limits hold as they did before the move
    const at = new Date(now);
    expect(await isKnownClient(db, { email: "owner@test.example", client: "10.0.0.1" }, at)).toBe(true);
    expect(await isKnownClient(db, { email: "stale@test.example", client: "10.0.0.2" }, at)).toBe(false);
    expect((await takeRateLimit(db, [RATE_LIMITS.registration], { client: "10.0.0.3" }, at)).ok).toBe(false);
    expect((await takeRateLimit(db, [RATE_LIMITS.verification], { client: "10.0.0.4" }, at)).ok).toBe(false);
    expect((await takeRateLimit(db, [RATE_LIMITS.verification], { client: "10.0.0.5" }, at)).ok).toBe(true);
    expect((await takeRateLimit(db, [RATE_LIMITS.secondStep], { userId: "user-1" }, at)).ok).toBe(false);
    expect((await takeRateLimit(db, [RATE_LIMITS.resetEmail], { email: "a@test.example", client: "10.0.0.6" }, at)).ok).toBe(false);

    // one step down: the old tables again, with the clients each account knows
    expect((await migrator.migrateTo(before)).error).toBeUndefined();
    const known = await old.selectFrom("sign_in_attempts").selectAll().execute();
    expect(known).toEqual([{ id: expect.anything(), email: "owner@test.example", client: "10.0.0.1", succeeded: 1, attempted_at: ago(2 * 24 * 60) }]);
    await migrateToLatest(db);
  });
});
