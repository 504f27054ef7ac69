import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { issueApiToken, getTokenUser } from "~/api/auth.server";
import { sha256, verifyPassword } from "~/security/password.server";
import { rememberClient, RATE_LIMITS } from "~/security/rate-limits.server";
import { createSession } from "~/auth/session.server";
import { createTestDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { inspectResetToken, requestPasswordReset, resetPassword, RESET_TOKEN_TTL_MINUTES, type ResetRequestOutcome } from "./password-reset.server";

let db: DB;
let cleanup: () => Promise<void>;
let clientSeq = 0;
/** Each test asks from its own client unless it is testing the client limit. */
const client = () => `10.0.0.${++clientSeq}`;
const MIN = 60_000;
const MAX_RESET_REQUESTS_PER_EMAIL = RATE_LIMITS.resetEmail.limit;
const MAX_RESET_MAILS_PER_EMAIL = RATE_LIMITS.resetStrangers.limit;
const MAX_RESET_REQUESTS_PER_CLIENT = RATE_LIMITS.resetClient.limit;
/** A request refused under a rate limit: the caller is told when asking again can succeed. */
const limited = (by: "email" | "client") => ({ kind: "limited", by, retryAfterSeconds: expect.any(Number) });

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(() => cleanup());

function issued(outcome: ResetRequestOutcome) {
  if (outcome.kind !== "issued") throw new Error(`expected a token, got ${outcome.kind}`);
  return outcome;
}

async function tokensOf(userId: string) {
  return db.selectFrom("password_reset_tokens").selectAll().where("user_id", "=", userId).execute();
}

describe("requesting a reset", () => {
  it("issues a random token for an active account and stores only its hash, valid for one hour", async () => {
    const user = await makeUser(db, { email: "hash@test.example", full_name: "Hash Person" });
    const now = new Date("2026-11-22T10:00:00.000Z");
    const outcome = issued(await requestPasswordReset(db, { email: "  HASH@test.example ", client: client(), now }));
    expect(outcome.user).toEqual({ id: user.id, email: "hash@test.example", full_name: "Hash Person" });
    expect(outcome.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(outcome.expiresAt).toBe(new Date(now.getTime() + RESET_TOKEN_TTL_MINUTES * MIN).toISOString());
    const [row] = await tokensOf(user.id);
    expect(row!.token_hash).toBe(sha256(outcome.token));
    expect(JSON.stringify(row)).not.toContain(outcome.token);
    expect(row!.used_at).toBeNull();
    const other = issued(await requestPasswordReset(db, { email: "hash@test.example", client: client(), now }));
    expect(other.token).not.toBe(outcome.token);
    const event = await db.selectFrom("events").selectAll().where("subject_user_id", "=", user.id).where("type", "=", "password.reset_requested").execute();
    expect(event.length).toBe(2);
  });

  it("issues nothing for an unknown, inactive, pending or rejected account", async () => {
    await makeUser(db, { email: "off@test.example", is_active: false });
    await makeUser(db, { email: "pending@test.example", role: "trainer", approval_status: "pending" });
    await makeUser(db, { email: "rejected@test.example", role: "trainer", approval_status: "rejected" });
    for (const email of ["nobody@test.example", "off@test.example", "pending@test.example", "rejected@test.example"]) {
      expect(await requestPasswordReset(db, { email, client: client() })).toEqual({ kind: "no-account" });
    }
    const tokens = await db
      .selectFrom("password_reset_tokens")
      .innerJoin("users", "users.id", "password_reset_tokens.user_id")
      .select("users.email")
      .where("users.email", "in", ["off@test.example", "pending@test.example", "rejected@test.example"])
      .execute();
    expect(tokens).toEqual([]);
  });

  it("keeps the links already sent working when someone asks again; using one ends them all", async () => {
    const user = await makeUser(db);
    const first = issued(await requestPasswordReset(db, { email: user.email, client: client() }));
    const second = issued(await requestPasswordReset(db, { email: user.email, client: client() }));
    expect(await inspectResetToken(db, first.token)).toEqual({ ok: true, userId: user.id, email: user.email, role: "student" });
    expect(await inspectResetToken(db, second.token)).toEqual({ ok: true, userId: user.id, email: user.email, role: "student" });
    expect((await resetPassword(db, { token: first.token, password: "another-pass-1" })).ok).toBe(true);
    expect(await inspectResetToken(db, second.token)).toEqual({ ok: false, reason: "unknown" });
  });

  it(`allows ${MAX_RESET_REQUESTS_PER_EMAIL} requests per email from one client an hour, known account or not, then refuses`, async () => {
    const user = await makeUser(db);
    const start = new Date("2026-11-22T12:00:00.000Z");
    const one = client();
    for (let i = 0; i < MAX_RESET_REQUESTS_PER_EMAIL; i++) {
      const at = new Date(start.getTime() + i * MIN);
      expect((await requestPasswordReset(db, { email: user.email, client: one, now: at })).kind).toBe("issued");
      expect((await requestPasswordReset(db, { email: "ghost@test.example", client: one, now: at })).kind).toBe("no-account");
    }
    const later = new Date(start.getTime() + 10 * MIN);
    expect(await requestPasswordReset(db, { email: user.email, client: one, now: later })).toEqual(limited("email"));
    expect(await requestPasswordReset(db, { email: "ghost@test.example", client: one, now: later })).toEqual(limited("email"));
    // The refused request issued nothing.
    expect(await tokensOf(user.id)).toHaveLength(MAX_RESET_REQUESTS_PER_EMAIL);
    const nextHour = new Date(start.getTime() + 61 * MIN);
    expect((await requestPasswordReset(db, { email: user.email, client: one, now: nextHour })).kind).toBe("issued");
  });

  it(`strangers get ${MAX_RESET_MAILS_PER_EMAIL} mails to an address an hour between them, and cannot use up the owner's`, async () => {
    const user = await makeUser(db);
    const owner = client();
    const start = new Date("2026-11-22T16:00:00.000Z");
    await rememberClient(db, { email: user.email, client: owner }, new Date(start.getTime() - 86_400_000));
    for (let i = 0; i < MAX_RESET_MAILS_PER_EMAIL; i++) {
      expect((await requestPasswordReset(db, { email: user.email, client: client(), now: new Date(start.getTime() + i * 1000) })).kind).toBe("issued");
    }
    const later = new Date(start.getTime() + 5 * MIN);
    expect(await requestPasswordReset(db, { email: user.email, client: client(), now: later })).toEqual(limited("email"));
    // the owner's own request still gets its mail, and the strangers' links did not void it
    const mine = issued(await requestPasswordReset(db, { email: user.email, client: owner, now: later }));
    expect(await inspectResetToken(db, mine.token, later)).toMatchObject({ ok: true });
    expect((await requestPasswordReset(db, { email: user.email, client: client(), now: later })).kind).toBe("limited");
  });

  it(`allows ${MAX_RESET_REQUESTS_PER_CLIENT} requests per client an hour, whatever the emails`, async () => {
    const user = await makeUser(db);
    const start = new Date("2026-11-22T14:00:00.000Z");
    const one = "192.0.2.77";
    for (let i = 0; i < MAX_RESET_REQUESTS_PER_CLIENT; i++) {
      const outcome = await requestPasswordReset(db, { email: `probe${i}@test.example`, client: one, now: new Date(start.getTime() + i * 1000) });
      expect(outcome.kind).toBe("no-account");
    }
    const later = new Date(start.getTime() + 30 * MIN);
    expect(await requestPasswordReset(db, { email: user.email, client: one, now: later })).toEqual(limited("client"));
    expect(await tokensOf(user.id)).toHaveLength(0);
    expect((await requestPasswordReset(db, { email: user.email, client: "192.0.2.78", now: later })).kind).toBe("issued");
    const nextHour = new Date(start.getTime() + 61 * MIN);
    expect((await requestPasswordReset(db, { email: user.email, client: one, now: nextHour })).kind).toBe("issued");
  });
});

describe("using a link", () => {
  it("changes the password, spends the token, and ends every session and API token", async () => {
    const user = await makeUser(db, { password: "oldpass1" });
    const { token } = issued(await requestPasswordReset(db, { email: user.email, client: client() }));
    const cookie = await createSession(db, user.id);
    const apiToken = await issueApiToken(db, user.id);
    expect(await getTokenUser(db, apiToken)).not.toBeNull();

    const result = await resetPassword(db, { token, password: "Kestrel-new-pass-1" });
    expect(result).toEqual({ ok: true, userId: user.id, email: user.email, role: "student" });

    const row = await db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword("Kestrel-new-pass-1", row.password_hash)).toBe(true);
    expect(await verifyPassword("oldpass1", row.password_hash)).toBe(false);
    expect(await db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    expect(await getTokenUser(db, apiToken)).toBeNull();
    expect(cookie).toContain("__session=");
    const [spent] = await tokensOf(user.id);
    expect(spent!.used_at).not.toBeNull();
    const events = await db.selectFrom("events").select("type").where("subject_user_id", "=", user.id).where("type", "=", "password.reset").execute();
    expect(events).toHaveLength(1);
  });

  it("works once: a second use is refused as used and changes nothing", async () => {
    const user = await makeUser(db);
    const { token } = issued(await requestPasswordReset(db, { email: user.email, client: client() }));
    expect((await resetPassword(db, { token, password: "first-new-pass" })).ok).toBe(true);
    expect(await resetPassword(db, { token, password: "second-new-pass" })).toEqual({ ok: false, reason: "used" });
    expect(await inspectResetToken(db, token)).toEqual({ ok: false, reason: "used" });
    const row = await db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword("first-new-pass", row.password_hash)).toBe(true);
  });

  it("changes the password once when two submissions race", async () => {
    const user = await makeUser(db);
    const { token } = issued(await requestPasswordReset(db, { email: user.email, client: client() }));
    const results = await Promise.all([resetPassword(db, { token, password: "racer-one" }), resetPassword(db, { token, password: "racer-two" })]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "used" }]);
  });

  it("refuses a link after its hour, without changing the password", async () => {
    const user = await makeUser(db, { password: "keepme12" });
    const issuedAt = new Date("2026-11-22T08:00:00.000Z");
    const { token } = issued(await requestPasswordReset(db, { email: user.email, client: client(), now: issuedAt }));
    const justBefore = new Date(issuedAt.getTime() + RESET_TOKEN_TTL_MINUTES * MIN - 1000);
    expect((await inspectResetToken(db, token, justBefore)).ok).toBe(true);
    const atExpiry = new Date(issuedAt.getTime() + RESET_TOKEN_TTL_MINUTES * MIN);
    expect(await inspectResetToken(db, token, atExpiry)).toEqual({ ok: false, reason: "expired" });
    expect(await resetPassword(db, { token, password: "too-late", now: atExpiry })).toEqual({ ok: false, reason: "expired" });
    const row = await db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword("keepme12", row.password_hash)).toBe(true);
  });

  it("refuses unknown, malformed and forged tokens", async () => {
    const user = await makeUser(db);
    const { token } = issued(await requestPasswordReset(db, { email: user.email, client: client() }));
    const stored = (await tokensOf(user.id))[0]!.token_hash;
    for (const bad of ["", "short", "x".repeat(500), token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"), stored, "' or 1=1 --"]) {
      expect(await inspectResetToken(db, bad)).toEqual({ ok: false, reason: "unknown" });
      expect(await resetPassword(db, { token: bad, password: "whatever1" })).toEqual({ ok: false, reason: "unknown" });
    }
    expect((await inspectResetToken(db, token)).ok).toBe(true);
  });

  it("refuses the link of an account deactivated after it was sent", async () => {
    const user = await makeUser(db);
    const { token } = issued(await requestPasswordReset(db, { email: user.email, client: client() }));
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", user.id).execute();
    expect(await resetPassword(db, { token, password: "sneaky12" })).toEqual({ ok: false, reason: "unknown" });
  });
});
