import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { setDemoAccounts } from "~/http/demo-lock.server";
import * as loginRoute from "~/routes/api+/auth.login";
import * as studentsRoute from "~/routes/api+/admin.students";
import * as logoutRoute from "~/routes/api+/auth.logout";
import * as adminLayout from "~/routes/admin+/_layout";
import * as securityPage from "~/routes/_auth+/account.security";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser, TEST_TOTP_SECRET } from "../../tests/support/factories";
import { bodyOf, call, caller, sessionCookie, type RouteModule } from "../../tests/support/api-calls";
import { RATE_LIMITS } from "~/security/rate-limits.server";
import {
  beginTwoStep,
  checkSecondStep,
  CODE_REQUIRED,
  confirmTwoStep,
  currentCode,
  hasTwoStep,
  REQUIRED_FOR_ADMINS,
  resetTwoStep,
  SET_UP_REQUIRED,
  TOO_MANY_CODES,
  twoStepSetUp,
  WRONG_CODE,
} from "./two-step.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());
afterEach(() => setDemoAccounts([]));

const mod = (m: unknown) => m as RouteModule;
const STEP = 30_000;
const T0 = new Date("2026-11-26T05:00:00.000Z").getTime();

describe("TOTP codes", () => {
  it("accepts the previous, current and next step's code, each once, and never an older step than the last accepted", async () => {
    const user = await makeUser(db, { role: "trainer", two_step: true });
    const now = new Date(T0);
    const code = (offset: number) => currentCode(TEST_TOTP_SECRET, T0 + offset * STEP);
    expect(await checkSecondStep(db, { userId: user.id, code: code(-1), now })).toBe("authenticator");
    expect(await checkSecondStep(db, { userId: user.id, code: code(0), now })).toBe("authenticator");
    // reused: refused
    await expect(checkSecondStep(db, { userId: user.id, code: code(0), now })).rejects.toMatchObject({ status: 401, message: WRONG_CODE });
    expect(await checkSecondStep(db, { userId: user.id, code: ` ${code(1)} `, now })).toBe("authenticator");
    // the previous step again, after a newer one was used: refused
    await expect(checkSecondStep(db, { userId: user.id, code: code(-1), now })).rejects.toMatchObject({ status: 401 });
    // two steps away is outside the window
    const other = await makeUser(db, { role: "trainer", two_step: true });
    await expect(checkSecondStep(db, { userId: other.id, code: code(2), now })).rejects.toMatchObject({ status: 401 });
    await expect(checkSecondStep(db, { userId: other.id, code: code(-2), now })).rejects.toMatchObject({ status: 401 });
  });

  it(`refuses every code after ${RATE_LIMITS.secondStep.limit} wrong ones per account in the window, a right one included`, async () => {
    const user = await makeUser(db, { role: "trainer", two_step: true });
    const now = new Date(T0 + 3600_000);
    for (let i = 0; i < RATE_LIMITS.secondStep.limit; i++) {
      await expect(checkSecondStep(db, { userId: user.id, code: "000000", now })).rejects.toMatchObject({ status: 401 });
    }
    const right = currentCode(TEST_TOTP_SECRET, now.getTime());
    await expect(checkSecondStep(db, { userId: user.id, code: right, now })).rejects.toMatchObject({ status: 429, message: TOO_MANY_CODES });
    // the next window starts again
    const later = new Date(now.getTime() + RATE_LIMITS.secondStep.windowMinutes * 60_000);
    expect(await checkSecondStep(db, { userId: user.id, code: currentCode(TEST_TOTP_SECRET, later.getTime()), now: later })).toBe("authenticator");
  });

  it("right codes do not use up the rate limit", async () => {
    const user = await makeUser(db, { role: "trainer", two_step: true });
    for (let i = 0; i < RATE_LIMITS.secondStep.limit + 2; i++) {
      const now = new Date(T0 + 7200_000 + i * STEP);
      expect(await checkSecondStep(db, { userId: user.id, code: currentCode(TEST_TOTP_SECRET, now.getTime()), now })).toBe("authenticator");
    }
  });
});

describe("set-up and recovery codes", () => {
  it("set-up shows a QR code and the key, is confirmed by a code, and gives ten recovery codes stored only as hashes, each working once", async () => {
    const user = await makeUser(db, { role: "student", email: "setup@test.example" });
    expect(await twoStepSetUp(db, user)).toMatchObject({ enabled: false, pending: null });
    await beginTwoStep(db, user.id);
    const { pending } = await twoStepSetUp(db, user);
    expect(pending!.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(pending!.uri).toContain(`secret=${pending!.secret}`);
    expect(pending!.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(pending!.qr.split(",")[1]!, "base64").toString()).toContain("<svg");
    expect(await hasTwoStep(db, user.id)).toBe(false);
    await expect(confirmTwoStep(db, { userId: user.id, code: "123456", actor: { id: user.id } })).rejects.toMatchObject({ status: 422 });
    const codes = await confirmTwoStep(db, { userId: user.id, code: currentCode(pending!.secret), actor: { id: user.id } });
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(await hasTwoStep(db, user.id)).toBe(true);
    const stored = await db.selectFrom("recovery_codes").selectAll().where("user_id", "=", user.id).execute();
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));
    expect(await checkSecondStep(db, { userId: user.id, code: codes[3]!.toUpperCase() })).toBe("recovery code");
    await expect(checkSecondStep(db, { userId: user.id, code: codes[3]! })).rejects.toMatchObject({ status: 401 });
    expect((await twoStepSetUp(db, user)).recoveryCodesLeft).toBe(9);
  });

  it("an administrator resets a staff member's second step; nobody else may, and an administrator cannot drop their own outside the demo", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const trainer = await makeUser(db, { role: "trainer", two_step: true });
    const student = await makeUser(db, { role: "student", two_step: true });
    await expect(resetTwoStep(db, { userId: trainer.id, actor: { id: student.id, role: "student" } })).rejects.toMatchObject({ status: 404 });
    await expect(resetTwoStep(db, { userId: student.id, actor: { id: admin.id, role: "admin" } })).rejects.toMatchObject({ status: 404 });
    await expect(resetTwoStep(db, { userId: admin.id, actor: { id: admin.id, role: "admin" } })).rejects.toMatchObject({
      status: 409,
      message: REQUIRED_FOR_ADMINS,
    });
    await resetTwoStep(db, { userId: trainer.id, actor: { id: admin.id, role: "admin", client: "10.1.1.1" } });
    expect(await hasTwoStep(db, trainer.id)).toBe(false);
    await resetTwoStep(db, { userId: student.id, actor: { id: student.id, role: "student" } });
    expect(await hasTwoStep(db, student.id)).toBe(false);
  });
});

describe("signing in over the /api", () => {
  it("an account with a second step gets 401 mfa_required without a code, 401 for a wrong one, a token with the right one", async () => {
    const user = await makeUser(db, { role: "trainer", two_step: true });
    const login = (json: Record<string, unknown>) =>
      call(mod(loginRoute), "POST", "/api/auth/login", { json: { email: user.email, password: "password123", ...json } });
    const without = await login({});
    expect(without.status).toBe(401);
    expect(await bodyOf(without)).toEqual({ detail: CODE_REQUIRED, mfa_required: true });
    const wrong = await login({ code: "000000" });
    expect(wrong.status).toBe(401);
    expect((await bodyOf(wrong)).mfa_required).toBeUndefined();
    const right = await login({ code: currentCode(TEST_TOTP_SECRET) });
    expect(right.status).toBe(200);
    expect(await bodyOf(right)).toMatchObject({ token_type: "bearer" });
    // a wrong password never reaches the code question
    expect((await bodyOf(await login({ password: "wrong-password" }))).mfa_required).toBeUndefined();
  });

  it("an administrator without a second step gets 403 mfa_setup_required at sign-in and on every /api call but sign-out", async () => {
    const admin = await caller(db, "admin", { two_step: false });
    const login = await call(mod(loginRoute), "POST", "/api/auth/login", { json: { email: admin.email, password: "password123" } });
    expect(login.status).toBe(403);
    expect(await bodyOf(login)).toEqual({ detail: SET_UP_REQUIRED, mfa_setup_required: true });
    const list = await call(mod(studentsRoute), "GET", "/api/admin/students", { token: admin.token });
    expect(list.status).toBe(403);
    expect(await bodyOf(list)).toEqual({ detail: SET_UP_REQUIRED, mfa_setup_required: true });
    expect((await call(mod(logoutRoute), "POST", "/api/auth/logout", { token: admin.token })).status).toBe(204);
  });

  it("while the portal runs the demo organisation it is required of no one", async () => {
    const admin = await caller(db, "admin", { two_step: false });
    setDemoAccounts(["admin@example.com"]);
    expect((await call(mod(studentsRoute), "GET", "/api/admin/students", { token: admin.token })).status).toBe(200);
    const login = await call(mod(loginRoute), "POST", "/api/auth/login", { json: { email: admin.email, password: "password123" } });
    expect(login.status).toBe(200);
  });
});

describe("pages", () => {
  it("an administrator without a second step is taken to Account security from every admin page, and may use that page", async () => {
    const admin = await makeUser(db, { role: "admin", two_step: false });
    const cookie = await sessionCookie(db, admin.id);
    const page = await call(mod(adminLayout), "GET", "/admin/students", { cookie });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/account/security");
    const security = await call(mod(securityPage), "GET", "/account/security", { cookie });
    expect(security.status).toBe(200);
    expect(await bodyOf(security)).toMatchObject({ required: true, setUp: { enabled: false } });
    // set up, the admin pages open
    await beginTwoStep(db, admin.id);
    const { pending } = await twoStepSetUp(db, admin);
    await confirmTwoStep(db, { userId: admin.id, code: currentCode(pending!.secret), actor: { id: admin.id } });
    expect((await call(mod(adminLayout), "GET", "/admin/students", { cookie })).status).toBe(200);
  });

  it("in the demo an administrator without a second step uses the admin pages", async () => {
    const admin = await makeUser(db, { role: "admin", two_step: false });
    setDemoAccounts(["admin@example.com"]);
    expect((await call(mod(adminLayout), "GET", "/admin/students", { cookie: await sessionCookie(db, admin.id) })).status).toBe(200);
  });
});
