import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataVersion, openDatabase, type DB } from "#db/connection";
import * as verify from "~/routes/api+/verify.$code";
import { call } from "../../tests/support/api-calls";
import { createTestDb, TEST_DIALECT, useAsAppDb } from "../../tests/support/test-db";
import {
  clearRateLimit,
  giveBackRateLimit,
  isKnownClient,
  KNOWN_CLIENT,
  rememberClient,
  RATE_LIMITS,
  takeRateLimit,
  type RateLimit,
} from "./rate-limits.server";

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
const at = (ms: number) => new Date(T0 + ms);
let seq = 0;
/** A requester no other test uses, with every part a rule may key on. */
const fresh = () => {
  seq++;
  return { client: `10.77.0.${seq}`, email: `limits-${seq}@test.example`, userId: `user-${seq}` };
};

async function rows() {
  return db.selectFrom("request_limits").selectAll().orderBy("id").execute();
}

describe("the rules", () => {
  it("are the portal's figures: name, key, limit and window of each", () => {
    const figures = Object.fromEntries(Object.entries(RATE_LIMITS).map(([id, r]) => [id, `${r.name} by ${r.key}: ${r.limit} per ${r.windowMinutes} min`]));
    expect(figures).toEqual({
      signInAccount: "sign-in:account by email: 5 per 15 min",
      signInKnownClient: "sign-in:known-client by email and client: 5 per 15 min",
      signInClient: "sign-in:client by client: 20 per 15 min",
      secondStep: "second-step by user: 5 per 15 min",
      registration: "registration by client: 10 per 60 min",
      verification: "verification by client: 30 per 10 min",
      resetClient: "reset:client by client: 10 per 60 min",
      resetEmail: "reset:email by email and client: 3 per 60 min",
      resetStrangers: "reset:strangers by email: 6 per 60 min",
      complaintClient: "complaint:client by client: 5 per 60 min",
      complaintEmail: "complaint:email by email: 3 per 1440 min",
      questionnaireClient: "questionnaire:client by client: 20 per 60 min",
      refereeReportClient: "referee-report:client by client: 10 per 60 min",
    });
    const names = [...Object.values(RATE_LIMITS).map((r) => r.name), KNOWN_CLIENT.name];
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(Object.entries(RATE_LIMITS))(
    "%s: accepts its limit in its window, refuses the next with Retry-After, accepts again once the window has passed",
    async (_id, rule: RateLimit) => {
      const who = fresh();
      for (let i = 0; i < rule.limit; i++) expect((await takeRateLimit(db, [rule], who, at(i * 1000))).ok).toBe(true);
      const refusedAt = at(rule.limit * 1000);
      const refused = await takeRateLimit(db, [rule], who, refusedAt);
      // the first request leaves the window windowMinutes after it was made
      expect(refused).toEqual({ ok: false, rule, retryAfterSeconds: rule.windowMinutes * 60 - rule.limit });
      // keys are apart: a different requester is counted on its own
      expect((await takeRateLimit(db, [rule], fresh(), refusedAt)).ok).toBe(true);
      expect((await takeRateLimit(db, [rule], who, at(rule.windowMinutes * MIN))).ok).toBe(true);
    },
  );
});

describe("the window", () => {
  const rule: RateLimit = { name: "test:window", key: "client", limit: 3, windowMinutes: 10 };

  it("slides: each request stops counting exactly one window after it was made", async () => {
    const who = fresh();
    for (const minute of [0, 4, 8]) expect((await takeRateLimit(db, [rule], who, at(minute * MIN))).ok).toBe(true);
    expect(await takeRateLimit(db, [rule], who, at(9 * MIN))).toMatchObject({ ok: false, retryAfterSeconds: 60 });
    // at 10 minutes the request of minute 0 is still in the window (it counts while younger than the window)…
    expect((await takeRateLimit(db, [rule], who, at(10 * MIN - 1))).ok).toBe(false);
    // …and not a moment later; the one of minute 4 then holds the next refusal
    expect((await takeRateLimit(db, [rule], who, at(10 * MIN))).ok).toBe(true);
    expect(await takeRateLimit(db, [rule], who, at(11 * MIN))).toMatchObject({ ok: false, retryAfterSeconds: 3 * 60 });
  });

  it("forgets requests that left their window when it counts a new one", async () => {
    const who = fresh();
    const other = fresh();
    await takeRateLimit(db, [rule], other, at(0));
    await takeRateLimit(db, [rule], who, at(20 * MIN));
    const left = (await rows()).filter((r) => r.rule === rule.name);
    expect(left.map((r) => r.key)).toEqual([who.client]);
  });

  it("refuses under the first rule over its limit, and then counts against none", async () => {
    const tight: RateLimit = { name: "test:tight", key: "email", limit: 1, windowMinutes: 10 };
    const loose: RateLimit = { name: "test:loose", key: "client", limit: 10, windowMinutes: 10 };
    const who = fresh();
    expect((await takeRateLimit(db, [loose, tight], who, at(0))).ok).toBe(true);
    expect(await takeRateLimit(db, [loose, tight], who, at(1000))).toMatchObject({ ok: false, rule: tight });
    const counted = (await rows()).filter((r) => r.rule === loose.name && r.key === who.client);
    expect(counted).toHaveLength(1);
  });
});

describe("giving back and clearing", () => {
  const rule: RateLimit = { name: "test:failures", key: "user", limit: 2, windowMinutes: 15 };

  it("a request given back does not count; clearing forgets every request of the key", async () => {
    const who = fresh();
    const first = await takeRateLimit(db, [rule], who, at(0));
    if (!first.ok) throw new Error("refused");
    await giveBackRateLimit(db, first.taken);
    await takeRateLimit(db, [rule], who, at(1000));
    await takeRateLimit(db, [rule], who, at(2000));
    expect((await takeRateLimit(db, [rule], who, at(3000))).ok).toBe(false);
    await clearRateLimit(db, rule, who);
    expect((await takeRateLimit(db, [rule], who, at(4000))).ok).toBe(true);
  });

  it("a client that signed in is known to the account for the known-client window, and to that account only", async () => {
    const who = fresh();
    await rememberClient(db, who, at(0));
    expect(await isKnownClient(db, who, at(KNOWN_CLIENT.windowMinutes * MIN - 1))).toBe(true);
    expect(await isKnownClient(db, who, at(KNOWN_CLIENT.windowMinutes * MIN))).toBe(false);
    expect(await isKnownClient(db, { ...who, email: "someone-else@test.example" }, at(0))).toBe(false);
    // signing in again keeps one row for the pair, with the newer time
    await rememberClient(db, who, at(MIN));
    expect((await rows()).filter((r) => r.rule === KNOWN_CLIENT.name && r.key.startsWith(who.email))).toHaveLength(1);
  });
});

describe("under concurrency", () => {
  it("N simultaneous requests against a limit K: exactly K accepted, K rows", async () => {
    const rule: RateLimit = { name: "test:concurrent", key: "client", limit: 5, windowMinutes: 10 };
    const who = fresh();
    // PostgreSQL: other pools on the same database, as other servers would have. SQLite keeps
    // one connection per process (a second one in this thread would block it while waiting for
    // the first's lock); processes take turns as these requests do, which the workers test shows.
    const others = TEST_DIALECT === "postgres" ? [openDatabase(url), openDatabase(url), openDatabase(url)] : [];
    try {
      const connections = [db, ...others];
      const decisions = await Promise.all(Array.from({ length: 24 }, (_, i) => takeRateLimit(connections[i % connections.length]!, [rule], who, at(i))));
      expect(decisions.filter((d) => d.ok)).toHaveLength(rule.limit);
      expect((await rows()).filter((r) => r.rule === rule.name)).toHaveLength(rule.limit);
    } finally {
      await Promise.all(others.map((o) => o.destroy()));
    }
  });
});

describe("a refused request writes nothing", () => {
  /** Waits until the database's change signal is steady (PostgreSQL's change feed connects on first use). */
  async function steadyVersion(): Promise<string> {
    for (;;) {
      const first = dataVersion(db);
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (dataVersion(db) === first) return first;
    }
  }

  it("GET /api/verify/AAAA from a client over its limit leaves the table and the change signal as they were", async () => {
    const client = fresh().client;
    const get = () => call(verify, "GET", "/api/verify/AAAA", { params: { code: "AAAA" }, client });
    for (let i = 0; i < RATE_LIMITS.verification.limit; i++) expect((await get()).status).toBe(404);
    const before = await rows();
    const version = await steadyVersion();

    const refused = await get();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await rows()).toEqual(before);
    expect(await steadyVersion()).toBe(version);

    // the signal does see a counted request, so the check above can fail
    expect((await call(verify, "GET", "/api/verify/AAAA", { params: { code: "AAAA" }, client: fresh().client })).status).toBe(404);
    expect(await steadyVersion()).not.toBe(version);
    expect(await rows()).toHaveLength(before.length + 1);
  });
});
