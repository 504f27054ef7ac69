import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import type { RouteModule } from "../support/api-calls";
import { postFrom, serveRoutes, type RouteSockets } from "../support/route-sockets";
import { RATE_LIMITS } from "~/security/rate-limits.server";
import * as apiLogin from "~/routes/api+/auth.login";
import * as apiRegister from "~/routes/api+/auth.register";
import * as formLogin from "~/routes/_auth+/login";
import { createTestDb, useAsAppDb } from "../support/test-db";
import { makeUser } from "../support/factories";

/**
 * Sign-in and registration rate limits over real sockets: each client is its socket address (TRUST_PROXY off),
 * and distinct loopback source addresses (127.0.0.2, 127.0.0.3, …) are distinct clients.
 * Guesses fired all at once must not slip past the limit, and the account's owner, from a
 * client that signed in before, is not locked out by guesses from elsewhere.
 */
let db: DB;
let cleanup: () => Promise<void>;
let sockets: RouteSockets;

beforeAll(async () => {
  delete process.env.TRUST_PROXY;
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  sockets = await serveRoutes([
    { prefix: "/api/auth/login", route: apiLogin as unknown as RouteModule },
    { prefix: "/api/auth/register", route: apiRegister as unknown as RouteModule },
    { prefix: "/login", route: formLogin as unknown as RouteModule },
  ]);
});
afterAll(async () => {
  await sockets.close();
  await cleanup();
});

/** POSTs from a given loopback source address (a client of its own). */
const post = (path: string, from: string, body: string, type?: string) => postFrom(sockets.port, path, from, body, type);
const login = (email: string, password: string, from: string) => post("/api/auth/login", from, JSON.stringify({ email, password }));

const MAX_FAILURES_PER_EMAIL = RATE_LIMITS.signInAccount.limit;

/** Wrong passwords counted against the account (every client here is a stranger to it). */
async function evaluatedFailures(email: string): Promise<number> {
  const row = await db
    .selectFrom("request_limits")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("rule", "=", RATE_LIMITS.signInAccount.name)
    .where("key", "=", email)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("sign-in rate limits under concurrency", () => {
  it(`evaluates at most ${MAX_FAILURES_PER_EMAIL} of 12 parallel wrong passwords from one client`, async () => {
    const { email } = await makeUser(db);
    const answers = await Promise.all(Array.from({ length: 12 }, () => login(email, "wrong-password", "127.0.0.2")));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILURES_PER_EMAIL);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - MAX_FAILURES_PER_EMAIL);
    expect(await evaluatedFailures(email)).toBe(MAX_FAILURES_PER_EMAIL);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(refused.text).detail).toMatch(/Too many sign-in attempts/);
  });

  it(`evaluates at most ${MAX_FAILURES_PER_EMAIL} of 12 parallel wrong passwords from 12 clients`, async () => {
    const { email } = await makeUser(db);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(email, "wrong-password", `127.0.1.${i + 2}`)));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(MAX_FAILURES_PER_EMAIL);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(12 - MAX_FAILURES_PER_EMAIL);
    expect(await evaluatedFailures(email)).toBe(MAX_FAILURES_PER_EMAIL);
  });

  it("the owner, from a client that signed in before, still gets in while guesses from elsewhere are refused", async () => {
    const { email } = await makeUser(db);
    expect((await login(email, "password123", "127.0.2.2")).status).toBe(200);
    const attack = await Promise.all(Array.from({ length: 10 }, (_, i) => login(email, "wrong-password", `127.0.3.${i + 2}`)));
    expect(attack.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    // the right password from an unknown client is refused like any guess…
    expect((await login(email, "password123", "127.0.4.2")).status).toBe(429);
    // …but the owner's own client signs in
    expect((await login(email, "password123", "127.0.2.2")).status).toBe(200);
  });

  it("the sign-in form answers a refused attempt with 429 and a clear message", async () => {
    const { email } = await makeUser(db);
    const form = (password: string) => post("/login", "127.0.5.2", new URLSearchParams({ email, password }).toString(), "application/x-www-form-urlencoded");
    const answers = await Promise.all(Array.from({ length: 8 }, () => form("wrong-password")));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(MAX_FAILURES_PER_EMAIL);
    const refused = answers.find((a) => a.status === 429)!;
    expect(JSON.parse(refused.text).error).toMatch(/Too many sign-in attempts\. Please wait 15 minutes/);
  });
});

describe("registration rate limit", () => {
  it("counts registrations per client (429 with detail) and never per network as a whole", async () => {
    const register = (i: number, from: string) =>
      post("/api/auth/register", from, JSON.stringify({ full_name: "Flood Test", email: `flood-${from}-${i}@test.example`, password: "Rigging-Kestrel-42" }));
    const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => register(i, "127.0.6.2")));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(4);
    expect(JSON.parse(refused[0]!.text).detail).toMatch(/Too many accounts/);
    expect(Number(refused[0]!.headers["retry-after"])).toBeGreaterThan(0);
    expect((await register(99, "127.0.6.3")).status).toBe(201);
  });
});
