import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { sha256 } from "~/security/password.server";
import { ACCOUNT_INACTIVE, AWAITING_APPROVAL, INVALID_CREDENTIALS } from "~/auth/sign-in.server";
import { REGISTERED, REGISTERED_PENDING } from "~/models/user.server";
import * as login from "~/routes/api+/auth.login";
import * as logout from "~/routes/api+/auth.logout";
import * as me from "~/routes/api+/auth.me";
import * as register from "~/routes/api+/auth.register";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser, makeUsi } from "../../tests/support/factories";
import { tokenResponse, userResponse } from "./schemas";
import { bodyOf, call, caller, sessionCookie } from "../../tests/support/api-calls";

let db: DB;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb({ seed: true }));
  useAsAppDb(db);
});
afterAll(async () => cleanup());

const uniqueEmail = (prefix = "api") => `${prefix}-${crypto.randomUUID().slice(0, 8)}@test.example`;

describe("POST /api/auth/login", () => {
  it("answers 200 {access_token, token_type: bearer}; the token signs the user in and is stored only hashed", async () => {
    const user = await makeUser(db, { role: "student" });
    const response = await call(login, "POST", "/api/auth/login", { json: { email: user.email.toUpperCase(), password: "password123" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = tokenResponse.parse(await bodyOf(response));
    expect(Object.keys(body).sort()).toEqual(["access_token", "token_type"]);
    const stored = await db.selectFrom("api_tokens").select(["token_hash", "expires_at"]).where("user_id", "=", user.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).toBe(sha256(body.access_token));
    expect(stored[0]!.token_hash).not.toContain(body.access_token);
    expect(Date.parse(stored[0]!.expires_at)).toBeGreaterThan(Date.now());
    const who = await call(me, "GET", "/api/auth/me", { token: body.access_token });
    expect(who.status).toBe(200);
    expect((await bodyOf(who)).id).toBe(user.id);
    const row = await db.selectFrom("users").select("last_login").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.last_login).not.toBeNull();
  });

  it("gives the same 401 detail for an unknown email and a wrong password", async () => {
    const user = await makeUser(db);
    const wrong = await call(login, "POST", "/api/auth/login", { json: { email: user.email, password: "not-the-password" } });
    const unknown = await call(login, "POST", "/api/auth/login", { json: { email: uniqueEmail("nobody"), password: "password123" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await bodyOf(wrong)).toEqual({ detail: INVALID_CREDENTIALS });
    expect(await bodyOf(unknown)).toEqual({ detail: INVALID_CREDENTIALS });
  });

  it("refuses pending and inactive accounts with 403 and the reason, issuing no token", async () => {
    const pending = await makeUser(db, { role: "trainer", approval_status: "pending" });
    const inactive = await makeUser(db, { is_active: false });
    const a = await call(login, "POST", "/api/auth/login", { json: { email: pending.email, password: "password123" } });
    const b = await call(login, "POST", "/api/auth/login", { json: { email: inactive.email, password: "password123" } });
    expect(a.status).toBe(403);
    expect(await bodyOf(a)).toEqual({ detail: AWAITING_APPROVAL });
    expect(b.status).toBe(403);
    expect(await bodyOf(b)).toEqual({ detail: ACCOUNT_INACTIVE });
    const tokens = await db.selectFrom("api_tokens").select("id").where("user_id", "in", [pending.id, inactive.id]).execute();
    expect(tokens).toHaveLength(0);
  });

  it("refuses repeated failures for one email with 429 and Retry-After, even with the right password", async () => {
    const user = await makeUser(db);
    for (let i = 0; i < 5; i++) {
      const r = await call(login, "POST", "/api/auth/login", { json: { email: user.email, password: `wrong-${i}` } });
      expect(r.status).toBe(401);
    }
    const refused = await call(login, "POST", "/api/auth/login", { json: { email: user.email, password: "password123" } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await bodyOf(refused)).detail).toMatch(/Too many sign-in attempts/);
  });

  it("answers bad input with 4xx JSON, never 500", async () => {
    const cases: Array<[Parameters<typeof call>[3], number, RegExp]> = [
      [{ body: "{not json", contentType: "application/json" }, 400, /not valid JSON/],
      [{ body: "[1,2]", contentType: "application/json" }, 400, /JSON object/],
      [{ body: "null", contentType: "application/json" }, 400, /JSON object/],
      [{ body: "", contentType: "application/json" }, 400, /required/],
      [{ body: "email=a@b.co&password=x", contentType: "application/x-www-form-urlencoded" }, 415, /application\/json/],
      [{ body: '{"email":"a@b.co","password":"x"}', contentType: "text/plain" }, 415, /application\/json/],
      [{ json: {} }, 422, /Email is required/],
      [{ json: { email: 42, password: ["x"] } }, 422, /Email is required/],
      [{ json: { email: "a@b.co", password: "x".repeat(5000) } }, 422, /at most 200/],
      [{ json: { email: "a@b.co", password: "password123", remember: true } }, 422, /Unknown field: remember/],
    ];
    for (const [options, status, detail] of cases) {
      const response = await call(login, "POST", "/api/auth/login", options);
      expect(response.status, JSON.stringify(options)).toBe(status);
      const body = await bodyOf(response);
      expect(body.detail).toMatch(detail);
    }
    const invalid = await bodyOf(await call(login, "POST", "/api/auth/login", { json: { password: "", extra: 1 } }));
    expect(invalid.errors).toEqual({ email: "Email is required", password: "Password is required", extra: "Unknown field" });
  });

  it("answers other methods with 405 and Allow", async () => {
    const response = await call(login, "GET", "/api/auth/login");
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST, OPTIONS");
    expect((await bodyOf(response)).detail).toMatch(/not allowed/);
    const options = await call(login, "OPTIONS", "/api/auth/login");
    expect(options.status).toBe(204);
    expect(options.headers.get("Allow")).toBe("POST, OPTIONS");
  });
});

describe("POST /api/auth/register", () => {
  const payload = (over: Record<string, unknown> = {}) => ({
    email: uniqueEmail("reg"),
    full_name: "Riley Api",
    password: "Rigging-Kestrel-42",
    phone: "0400 111 222",
    role: "student",
    address: "1 Quay St",
    date_of_birth: "1995-02-03",
    emergency_contact: "Sam 0400 000 111",
    ...over,
  });

  it("creates an active student: 201 {success: true, message}, and the account can sign in", async () => {
    const input = payload();
    const response = await call(register, "POST", "/api/auth/register", { json: input });
    expect(response.status).toBe(201);
    expect(await bodyOf(response)).toEqual({ success: true, message: REGISTERED });
    const row = await db.selectFrom("users").selectAll().where("email", "=", input.email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ full_name: "Riley Api", role: "student", is_active: 1, approval_status: "approved", date_of_birth: "1995-02-03" });
    const signIn = await call(login, "POST", "/api/auth/login", { json: { email: input.email, password: "Rigging-Kestrel-42" } });
    expect(signIn.status).toBe(200);
  });

  it("defaults the role to student and makes trainers wait for approval", async () => {
    const { role: _r, ...noRole } = payload();
    const a = await call(register, "POST", "/api/auth/register", { json: noRole });
    expect(a.status).toBe(201);
    const trainer = payload({ role: "trainer" });
    const b = await call(register, "POST", "/api/auth/register", { json: trainer });
    expect(b.status).toBe(201);
    expect(await bodyOf(b)).toEqual({ success: true, message: REGISTERED_PENDING });
    const row = await db.selectFrom("users").select(["role", "approval_status"]).where("email", "=", trainer.email).executeTakeFirstOrThrow();
    expect(row).toEqual({ role: "trainer", approval_status: "pending" });
  });

  it("answers a USI someone else holds exactly as a free one (no oracle), keeping the clash for the office", async () => {
    const holder = await makeUser(db, { usi: makeUsi(), usi_verified: true });
    const { usi } = await db.selectFrom("users").select("usi").where("id", "=", holder.id).executeTakeFirstOrThrow();
    const free = await call(register, "POST", "/api/auth/register", { json: payload({ usi: makeUsi() }) });
    const input = payload({ usi });
    const taken = await call(register, "POST", "/api/auth/register", { json: input });
    expect(taken.status).toBe(free.status);
    expect(await bodyOf(taken)).toEqual(await bodyOf(free));
    const row = await db.selectFrom("users").select(["usi", "usi_claimed"]).where("email", "=", input.email).executeTakeFirstOrThrow();
    expect(row).toEqual({ usi: null, usi_claimed: usi });
    const mine = await call(me, "GET", "/api/auth/me", {
      token: (await bodyOf<{ access_token: string }>(await call(login, "POST", "/api/auth/login", { json: { email: input.email, password: input.password } })))
        .access_token,
    });
    expect(await bodyOf(mine)).toMatchObject({ usi, usi_verified_at: null, usi_claimed: null });
  });

  it("refuses a taken email with 409 {success: false, message, detail}, changing nothing", async () => {
    const input = payload();
    expect((await call(register, "POST", "/api/auth/register", { json: input })).status).toBe(201);
    const again = await call(register, "POST", "/api/auth/register", { json: { ...input, email: input.email.toUpperCase(), full_name: "Other" } });
    expect(again.status).toBe(409);
    const body = await bodyOf(again);
    expect(body).toEqual({ success: false, message: "An account with this email already exists", detail: "An account with this email already exists" });
    const rows = await db.selectFrom("users").select("full_name").where("email", "=", input.email).execute();
    expect(rows).toEqual([{ full_name: "Riley Api" }]);
  });

  it("answers invalid input with 422 naming each field, and malformed input with 400/415, all with success: false", async () => {
    const invalid = await call(register, "POST", "/api/auth/register", {
      json: payload({ email: "not-an-email", password: "123", full_name: " ", role: "owner", confirm_password: "123" }),
    });
    expect(invalid.status).toBe(422);
    const body = await bodyOf<{ success: boolean; message: string; detail: string; errors: Record<string, string> }>(invalid);
    expect(body.success).toBe(false);
    expect(body.message).toBe(body.detail);
    expect(body.errors).toMatchObject({
      full_name: "Full name is required",
      email: "Enter a valid email address",
      password: "Password must be at least 6 characters",
      role: "Account type must be student, trainer or admin",
      confirm_password: "Unknown field",
    });
    const malformed = await call(register, "POST", "/api/auth/register", { body: "{", contentType: "application/json" });
    expect(malformed.status).toBe(400);
    expect(await bodyOf(malformed)).toMatchObject({
      success: false,
      message: "The request body is not valid JSON",
      detail: "The request body is not valid JSON",
    });
    const form = await call(register, "POST", "/api/auth/register", { body: "email=x", contentType: "multipart/form-data; boundary=x" });
    expect(form.status).toBe(415);
    expect((await bodyOf(form)).success).toBe(false);
    const huge = await call(register, "POST", "/api/auth/register", { json: payload({ full_name: "x".repeat(100_000) }) });
    expect(huge.status).toBe(422);
  });
});

describe("GET /api/auth/me", () => {
  it("returns the caller's public fields for every role, never a hash or token", async () => {
    for (const role of ["student", "trainer", "admin"] as const) {
      const c = await caller(db, role);
      const response = await call(me, "GET", "/api/auth/me", { token: c.token });
      expect(response.status).toBe(200);
      const text = await response.clone().text();
      expect(text).not.toMatch(/password|scrypt|token/i);
      const user = userResponse.parse(await bodyOf(response));
      expect(user).toMatchObject({ id: c.id, email: c.email, role, is_active: true });
    }
  });

  it("401 without credentials, with a bad or expired token, with WWW-Authenticate", async () => {
    const none = await call(me, "GET", "/api/auth/me");
    expect(none.status).toBe(401);
    expect(none.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    expect(await bodyOf(none)).toHaveProperty("detail");
    expect((await call(me, "GET", "/api/auth/me", { token: "nonsense" })).status).toBe(401);
    expect((await call(me, "GET", "/api/auth/me", { headers: { Authorization: "Basic abc" } })).status).toBe(401);
    const c = await caller(db, "student");
    await db
      .updateTable("api_tokens")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("user_id", "=", c.id)
      .execute();
    expect((await call(me, "GET", "/api/auth/me", { token: c.token })).status).toBe(401);
  });

  it("403 for a token whose account was switched off", async () => {
    const c = await caller(db, "student");
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", c.id).execute();
    const response = await call(me, "GET", "/api/auth/me", { token: c.token });
    expect(response.status).toBe(403);
    expect(await bodyOf(response)).toEqual({ detail: ACCOUNT_INACTIVE });
  });

  it("accepts the browser's session cookie on GET", async () => {
    const c = await caller(db, "trainer");
    const response = await call(me, "GET", "/api/auth/me", { cookie: await sessionCookie(db, c.id) });
    expect(response.status).toBe(200);
    expect((await bodyOf(response)).id).toBe(c.id);
  });

  it("answers HEAD like GET and other methods with 405", async () => {
    const c = await caller(db, "student");
    expect((await call(me, "HEAD", "/api/auth/me", { token: c.token })).status).toBe(200);
    const put = await call(me, "PUT", "/api/auth/me", { token: c.token, json: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("POST /api/auth/logout", () => {
  it("revokes the token sent (204) and only that one", async () => {
    const c = await caller(db, "student");
    const other = await call(login, "POST", "/api/auth/login", { json: { email: c.email, password: "password123" } });
    const otherToken = (await bodyOf<{ access_token: string }>(other)).access_token;
    const response = await call(logout, "POST", "/api/auth/logout", { token: c.token });
    expect(response.status).toBe(204);
    expect((await call(me, "GET", "/api/auth/me", { token: c.token })).status).toBe(401);
    expect((await call(me, "GET", "/api/auth/me", { token: otherToken })).status).toBe(200);
  });

  it("with {everywhere: true} ends every token and session of the user", async () => {
    const c = await caller(db, "trainer");
    const cookie = await sessionCookie(db, c.id);
    const other = await call(login, "POST", "/api/auth/login", { json: { email: c.email, password: "password123" } });
    const otherToken = (await bodyOf<{ access_token: string }>(other)).access_token;
    const response = await call(logout, "POST", "/api/auth/logout", { token: otherToken, json: { everywhere: true } });
    expect(response.status).toBe(204);
    expect((await call(me, "GET", "/api/auth/me", { token: c.token })).status).toBe(401);
    expect((await call(me, "GET", "/api/auth/me", { cookie })).status).toBe(401);
  });

  it("ends a cookie session from the same origin, but not a cookie-only write without Origin", async () => {
    const c = await caller(db, "student");
    const cookie = await sessionCookie(db, c.id);
    const blind = await call(logout, "POST", "/api/auth/logout", { cookie });
    expect(blind.status).toBe(401);
    expect((await call(me, "GET", "/api/auth/me", { cookie })).status).toBe(200);
    const same = await call(logout, "POST", "/api/auth/logout", { cookie, headers: { Origin: "http://localhost" } });
    expect(same.status).toBe(204);
    expect(same.headers.get("Set-Cookie")).toMatch(/__session=;/);
    expect((await call(me, "GET", "/api/auth/me", { cookie })).status).toBe(401);
  });

  it("refuses a bad body and anonymous callers", async () => {
    const c = await caller(db, "student");
    expect((await call(logout, "POST", "/api/auth/logout")).status).toBe(401);
    const bad = await call(logout, "POST", "/api/auth/logout", { token: c.token, json: { everywhere: "yes" } });
    expect(bad.status).toBe(422);
    expect((await call(me, "GET", "/api/auth/me", { token: c.token })).status).toBe(200);
  });
});
