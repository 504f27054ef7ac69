import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as securityPage from "~/routes/_auth+/account.security";
import { WRONG_CURRENT_PASSWORD } from "~/models/user.server";
import { verifyPassword } from "~/security/password.server";
import { issueApiToken, getTokenUser } from "~/api/auth.server";
import { getSessionUser } from "./session.server";
import { RATE_LIMITS } from "~/security/rate-limits.server";
import { TOO_MANY_ATTEMPTS } from "./sign-in.server";
import { checkSecondStep, currentCode, hasTwoStep, TOO_MANY_CODES, twoStepSetUp, WRONG_CODE } from "./two-step.server";
import { CURRENT_CODE_REQUIRED, CURRENT_PASSWORD_REQUIRED } from "./factor-change.server";
import { deliverDueMail } from "~/jobs/deliver-mail.server";
import { getMailer } from "~/mail/transport.server";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser, TEST_TOTP_SECRET } from "../../tests/support/factories";
import { bodyOf, call, sessionCookie, type RouteModule } from "../../tests/support/api-calls";
import { parseEml } from "../../tests/support/eml";

/**
 * Changes to how an account signs in need its owner, not only a signed-in browser: the current
 * password and (with two-step sign-in on) a current code. A stolen session alone changes
 * nothing; a right change ends every other session and token and mails the owner.
 */
const OUTBOX = path.resolve("tests/.tmp", `outbox-factors-${process.pid}`);
process.env.OUTBOX_DIR = OUTBOX;

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(async () => {
  fs.rmSync(OUTBOX, { recursive: true, force: true });
  await cleanup();
});

const page = securityPage as unknown as RouteModule;
const STEP = 30_000;

/** A code of the test authenticator `k` steps from now (each step's code is accepted once, newer than the last). */
const code = (k = 0, secret = TEST_TOTP_SECRET) => currentCode(secret, Date.now() + k * STEP);

function post(intent: string, cookie: string, fields: Record<string, string>, client = "10.9.9.9") {
  return call(page, "POST", `/account/security?intent=${intent}`, {
    cookie,
    body: new URLSearchParams({ intent, ...fields }).toString(),
    contentType: "application/x-www-form-urlencoded",
    client,
  });
}

/** An account with two-step sign-in on, signed in on this browser and elsewhere, with an API token. */
async function signedInTwice(role: "student" | "trainer" = "trainer", twoStep = true) {
  const user = await makeUser(db, { role, two_step: twoStep });
  const here = await sessionCookie(db, user.id);
  const elsewhere = await sessionCookie(db, user.id);
  const token = await issueApiToken(db, user.id);
  return { ...user, here, elsewhere, token };
}

const signedIn = async (cookie: string) => (await getSessionUser(db, new Request("http://localhost/", { headers: { Cookie: cookie } })))?.id ?? null;
const twoStepRow = (userId: string) => db.selectFrom("two_step").selectAll().where("user_id", "=", userId).executeTakeFirst();
/** The mails the outbox holds for an address, delivered as the runner would (to OUTBOX_DIR's files). */
async function mailsTo(email: string) {
  await deliverDueMail(db, { mailer: getMailer(), worker: "factor-change-test" });
  return (fs.existsSync(OUTBOX) ? fs.readdirSync(OUTBOX).filter((f) => f.endsWith(".eml")) : [])
    .map((f) => parseEml(fs.readFileSync(path.join(OUTBOX, f), "utf8")))
    .filter((m) => m.headers.to?.includes(email));
}
const audit = (userId: string, action: string) =>
  db.selectFrom("audit_log").selectAll().where("subject_user_id", "=", userId).where("action", "=", action).execute();

describe("a signed-in browser alone changes no sign-in factor", () => {
  it("turn-off, set up again, confirm and change password each refuse a post that carries only the session cookie, and change nothing", async () => {
    const user = await signedInTwice();
    const before = await twoStepRow(user.id);
    const turnOff = await post("turn-off", user.here, {});
    expect(turnOff.status).toBe(400);
    expect((await bodyOf(turnOff)).fieldErrors).toMatchObject({ current_password: CURRENT_PASSWORD_REQUIRED });
    const begin = await post("begin", user.here, {});
    expect(begin.status).toBe(422);
    expect((await bodyOf(begin)).fieldErrors).toEqual({ current_password: CURRENT_PASSWORD_REQUIRED });
    const confirm = await post("confirm", user.here, { code: code() });
    expect(confirm.status).toBe(400);
    const password = await post("password", user.here, { password: "Kestrel-hoist-77", confirm_password: "Kestrel-hoist-77" });
    expect(password.status).toBe(400);
    expect(await twoStepRow(user.id)).toEqual(before);
    expect(await signedIn(user.elsewhere)).toBe(user.id);
    expect(await getTokenUser(db, user.token)).not.toBeNull();
    const row = await db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword("password123", row.password_hash)).toBe(true);
  });

  it("a right password without a current code is refused beside the code field, where two-step sign-in is on", async () => {
    const user = await signedInTwice();
    for (const intent of ["turn-off", "begin"]) {
      const answer = await post(intent, user.here, { current_password: "password123" });
      expect(answer.status).toBe(422);
      expect((await bodyOf(answer)).fieldErrors).toEqual({ current_code: CURRENT_CODE_REQUIRED });
    }
    const password = await post("password", user.here, { current_password: "password123", password: "Kestrel-hoist-77", confirm_password: "Kestrel-hoist-77" });
    expect((await bodyOf(password)).fieldErrors).toEqual({ current_code: CURRENT_CODE_REQUIRED });
    expect(await hasTwoStep(db, user.id)).toBe(true);
    expect((await twoStepRow(user.id))!.pending_secret).toBeNull();
    expect(await signedIn(user.elsewhere)).toBe(user.id);
  });

  it("a wrong password or code is refused beside its field and counts towards the sign-in limits", async () => {
    const user = await signedInTwice();
    const wrongCode = await post("turn-off", user.here, { current_password: "password123", current_code: "000000" });
    expect(wrongCode.status).toBe(422);
    expect((await bodyOf(wrongCode)).fieldErrors).toEqual({ current_code: WRONG_CODE });
    for (let i = 1; i < RATE_LIMITS.secondStep.limit; i++) await post("turn-off", user.here, { current_password: "password123", current_code: "000000" });
    // the account's wrong-code limit is the sign-in's: a right code is refused now, at sign-in too
    const limited = await post("turn-off", user.here, { current_password: "password123", current_code: code() });
    expect(limited.status).toBe(429);
    expect((await bodyOf(limited)).error).toBe(TOO_MANY_CODES);
    await expect(checkSecondStep(db, { userId: user.id, code: code(1) })).rejects.toMatchObject({ status: 429 });
    expect(await hasTwoStep(db, user.id)).toBe(true);

    const other = await signedInTwice();
    const wrong = await post("turn-off", other.here, { current_password: "not-my-password", current_code: code() });
    expect(wrong.status).toBe(422);
    expect((await bodyOf(wrong)).fieldErrors).toEqual({ current_password: WRONG_CURRENT_PASSWORD });
    for (let i = 1; i < RATE_LIMITS.signInAccount.limit; i++) await post("turn-off", other.here, { current_password: "not-my-password" });
    const tooMany = await post("turn-off", other.here, { current_password: "password123", current_code: code() });
    expect(tooMany.status).toBe(429);
    expect((await bodyOf(tooMany)).error).toBe(TOO_MANY_ATTEMPTS);
    expect(await hasTwoStep(db, other.id)).toBe(true);
    expect(await signedIn(other.elsewhere)).toBe(other.id);
  });
});

describe("the owner changes a factor", () => {
  it("turning two-step sign-in off with the password and a code ends every other session and token, keeps this one, and mails the owner", async () => {
    const user = await signedInTwice();
    const answer = await post("turn-off", user.here, { current_password: "password123", current_code: code() });
    expect(answer.status).toBe(302);
    expect(await hasTwoStep(db, user.id)).toBe(false);
    expect(await signedIn(user.here)).toBe(user.id);
    expect(await signedIn(user.elsewhere)).toBeNull();
    expect(await getTokenUser(db, user.token)).toBeNull();
    expect(await audit(user.id, "two_step.turned_off")).toHaveLength(1);
    expect((await audit(user.id, "sessions.ended"))[0]).toMatchObject({ detail: "1 other session(s) and 1 API token(s) ended" });
    const [mail] = await mailsTo(user.email);
    expect(mail!.headers.subject).toMatch(/^Two-step sign-in was turned off/);
    expect(mail!.text).toContain("If this was not you, contact the office");
    expect(mail!.text).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m \(Sydney time\)/);
  });

  it("a recovery code serves as the current code", async () => {
    const user = await signedInTwice("student", false);
    await post("begin", user.here, {});
    const { pending } = await twoStepSetUp(db, user);
    const confirmed = await post("confirm", user.here, { code: currentCode(pending!.secret), current_password: "password123" });
    const { recoveryCodes } = await bodyOf<{ recoveryCodes: string[] }>(confirmed);
    expect(await hasTwoStep(db, user.id)).toBe(true);
    expect((await post("turn-off", user.here, { current_password: "password123", current_code: recoveryCodes[0]! })).status).toBe(302);
    expect(await hasTwoStep(db, user.id)).toBe(false);
  });

  it("setting it up again: the old authenticator keeps working until the new one is confirmed with its code and the password", async () => {
    const user = await signedInTwice();
    expect((await post("begin", user.here, { current_password: "password123", current_code: code(-1) })).status).toBe(302);
    const { enabled, pending } = await twoStepSetUp(db, user);
    expect(enabled).toBe(true);
    expect(pending!.secret).not.toBe(TEST_TOTP_SECRET);
    // until confirmed, sign-in still takes the old authenticator's codes
    expect(await checkSecondStep(db, { userId: user.id, code: code(0) })).toBe("authenticator");
    expect(await signedIn(user.elsewhere)).toBe(user.id);
    const wrongPassword = await post("confirm", user.here, { code: code(0, pending!.secret), current_password: "nope-nope" });
    expect((await bodyOf(wrongPassword)).fieldErrors).toEqual({ current_password: WRONG_CURRENT_PASSWORD });
    const confirmed = await post("confirm", user.here, { code: code(0, pending!.secret), current_password: "password123" });
    expect(confirmed.status).toBe(200);
    expect((await bodyOf<{ recoveryCodes: string[] }>(confirmed)).recoveryCodes).toHaveLength(10);
    await expect(checkSecondStep(db, { userId: user.id, code: code(1) })).rejects.toMatchObject({ status: 401 });
    expect(await checkSecondStep(db, { userId: user.id, code: code(1, pending!.secret) })).toBe("authenticator");
    expect(await signedIn(user.here)).toBe(user.id);
    expect(await signedIn(user.elsewhere)).toBeNull();
    expect(await getTokenUser(db, user.token)).toBeNull();
    expect(await audit(user.id, "two_step.set_up_again")).toHaveLength(1);
    expect((await mailsTo(user.email)).map((m) => m.headers.subject)).toEqual([expect.stringMatching(/^Two-step sign-in was set up again/)]);
  });

  it("changing the password asks for a current code where two-step sign-in is on; this browser stays signed in, the rest are signed out", async () => {
    const user = await signedInTwice();
    const answer = await post("password", user.here, {
      current_password: "password123",
      current_code: code(),
      password: "Kestrel-hoist-77",
      confirm_password: "Kestrel-hoist-77",
    });
    expect(answer.status).toBe(302);
    const row = await db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword("Kestrel-hoist-77", row.password_hash)).toBe(true);
    expect(await signedIn(user.here)).toBe(user.id);
    expect(await signedIn(user.elsewhere)).toBeNull();
    expect(await getTokenUser(db, user.token)).toBeNull();
    expect((await mailsTo(user.email)).map((m) => m.headers.subject)).toEqual([expect.stringMatching(/^Your password was changed/)]);
  });

  it("a first authenticator is confirmed with its code and the password; it too ends other sessions and is mailed", async () => {
    const user = await signedInTwice("student", false);
    expect((await post("begin", user.here, {})).status).toBe(302);
    const { pending } = await twoStepSetUp(db, user);
    expect((await post("confirm", user.here, { code: currentCode(pending!.secret) })).status).toBe(400);
    expect(await hasTwoStep(db, user.id)).toBe(false);
    expect((await post("confirm", user.here, { code: currentCode(pending!.secret), current_password: "password123" })).status).toBe(200);
    expect(await hasTwoStep(db, user.id)).toBe(true);
    expect(await signedIn(user.elsewhere)).toBeNull();
    expect((await mailsTo(user.email)).map((m) => m.headers.subject)).toEqual([expect.stringMatching(/^Two-step sign-in was set up:/)]);
  });
});
