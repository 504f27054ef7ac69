import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as loginPage from "~/routes/_auth+/login";
import { INVALID_CREDENTIALS } from "~/auth/sign-in.server";
import { createTestDb, useAsAppDb } from "../../../tests/support/test-db";
import { makeUser } from "../../../tests/support/factories";
import { bodyOf, call, type RouteModule } from "../../../tests/support/api-calls";

/**
 * The sign-in form, answered through remix-auth's form strategy: the same answer for an unknown email as for a
 * wrong password (no field named, the email kept, the password never), the fields' own messages
 * beside them, and a session only after a right password.
 */
let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());

const signIn = (fields: Record<string, string>, path = "/login") =>
  call(loginPage as unknown as RouteModule, "POST", path, { body: new URLSearchParams(fields).toString(), contentType: "application/x-www-form-urlencoded" });

describe("the sign-in form", () => {
  it("answers an unknown email exactly as a wrong password", async () => {
    const { email } = await makeUser(db, { role: "student" });
    const wrong = await signIn({ email, password: "not-the-password" });
    const unknown = await signIn({ email: "nobody@test.example", password: "not-the-password" });
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
    const [a, b] = [await bodyOf(wrong), await bodyOf(unknown)];
    expect(a).toMatchObject({ error: INVALID_CREDENTIALS, fieldErrors: {}, values: { email } });
    expect(b).toMatchObject({ error: INVALID_CREDENTIALS, fieldErrors: {}, values: { email: "nobody@test.example" } });
    expect(Object.keys(a.values as object)).toEqual(["email"]);
  });

  it("shows invalid fields beside themselves, keeping the email", async () => {
    const answer = await signIn({ email: " ", password: "" });
    expect(answer.status).toBe(400);
    const body = await bodyOf<{ fieldErrors: Record<string, string>; values: Record<string, string> }>(answer);
    expect(Object.keys(body.fieldErrors).sort()).toEqual(["email", "password"]);
    expect(body.values).toEqual({ email: " " });
  });

  it("refuses a body that is not the form", async () => {
    const answer = await call(loginPage as unknown as RouteModule, "POST", "/login", { json: { email: "a@b.example" } });
    expect(answer.status).toBe(400);
    expect(await bodyOf(answer)).toMatchObject({ error: "An error occurred during login" });
  });

  it("signs in with a session, to the page asked for", async () => {
    const { email } = await makeUser(db, { role: "student" });
    const answer = await signIn({ email, password: "password123" }, "/login?redirectTo=%2Fstudent%2Fcourses");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/student/courses");
    expect(answer.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(true);
  });
});
