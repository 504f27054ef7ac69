import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as loginPage from "~/routes/_auth+/login";
import * as secondStepPage from "~/routes/_auth+/login_.two-step";
import { readFlash } from "~/utils/flash.server";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser, TEST_TOTP_SECRET } from "../../tests/support/factories";
import { call, type RouteModule } from "../../tests/support/api-calls";
import { STEP_USED } from "./sign-in.server";
import { currentCode } from "./two-step.server";

/**
 * The state between a right password and its code is single-use: the second-step cookie
 * completes one sign-in, and replaying it (with a fresh code) fails back to the sign-in page.
 */
let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());

const form = (fields: Record<string, string>) => ({ body: new URLSearchParams(fields).toString(), contentType: "application/x-www-form-urlencoded" });
const cookiesOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]!);
const sessions = (userId: string) => db.selectFrom("sessions").select("id").where("user_id", "=", userId).execute();

/** Signs in with the password: the step cookie the browser holds afterwards. */
async function passwordStep(email: string): Promise<string> {
  const answer = await call(loginPage as unknown as RouteModule, "POST", "/login", form({ email, password: "password123" }));
  expect(answer.status).toBe(302);
  expect(answer.headers.get("Location")).toMatch(/^\/login\/two-step/);
  const [cookie] = cookiesOf(answer);
  expect(cookie).toMatch(/-step=/);
  return cookie!;
}

const submitCode = (cookie: string, code: string) => call(secondStepPage as unknown as RouteModule, "POST", "/login/two-step", { cookie, ...form({ code }) });

async function flashOf(response: Response): Promise<string | undefined> {
  const request = new Request("http://localhost/login", { headers: { Cookie: cookiesOf(response).join("; ") } });
  return (await readFlash(request)).flash?.message;
}

describe("the second step", () => {
  it("completes one sign-in; the same step cookie with a new code is sent back to sign in, with no new session", async () => {
    const user = await makeUser(db, { role: "trainer", two_step: true });
    const step = await passwordStep(user.email);
    const first = await submitCode(step, currentCode(TEST_TOTP_SECRET, Date.now() - 30_000));
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/dashboard");
    expect(await sessions(user.id)).toHaveLength(1);

    const replay = await submitCode(step, currentCode(TEST_TOTP_SECRET, Date.now() + 30_000));
    expect(replay.status).toBe(302);
    expect(replay.headers.get("Location")).toBe("/login");
    expect(await flashOf(replay)).toBe(STEP_USED);
    expect(await sessions(user.id)).toHaveLength(1);
    // the page itself sends the replayed cookie back too
    const shown = await call(secondStepPage as unknown as RouteModule, "GET", "/login/two-step", { cookie: step });
    expect(shown.status).toBe(302);
    expect(shown.headers.get("Location")).toBe("/login");
  });

  it("two requests carrying one step at the same moment, each with a right code, start one session", async () => {
    const user = await makeUser(db, { role: "trainer", two_step: true });
    const step = await passwordStep(user.email);
    const answers = await Promise.all([
      submitCode(step, currentCode(TEST_TOTP_SECRET, Date.now() - 30_000)),
      submitCode(step, currentCode(TEST_TOTP_SECRET, Date.now())),
      submitCode(step, currentCode(TEST_TOTP_SECRET, Date.now() + 30_000)),
    ]);
    // the others are sent back to sign in, or (a code older than one accepted meanwhile) told the code is not right
    for (const answer of answers) expect([302, 401]).toContain(answer.status);
    expect(answers.filter((a) => a.headers.get("Location") === "/dashboard")).toHaveLength(1);
    expect(await sessions(user.id)).toHaveLength(1);
    const stored = await db.selectFrom("sign_in_steps").selectAll().where("user_id", "=", user.id).execute();
    expect(stored).toEqual([expect.objectContaining({ used_at: expect.any(String) })]);
    // the table holds the step's hash, never the cookie's value
    expect(step).not.toContain(stored[0]!.id);
  });

  it("a wrong code leaves the step usable for a right one", async () => {
    const user = await makeUser(db, { role: "trainer", two_step: true });
    const step = await passwordStep(user.email);
    expect((await submitCode(step, "000000")).status).toBe(401);
    expect((await submitCode(step, currentCode(TEST_TOTP_SECRET))).headers.get("Location")).toBe("/dashboard");
  });
});
