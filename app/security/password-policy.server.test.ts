import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { bodyOf, call, type RouteModule } from "../../tests/support/api-calls";
import * as registerRoute from "~/routes/api+/auth.register";
import { changePassword, registerUser } from "~/models/user.server";
import { createStudent } from "~/models/student.server";
import { requestPasswordReset, resetPassword } from "~/models/password-reset.server";
import { PASSWORD_TOO_COMMON, passwordTooShort } from "~/schemas/password-text";
import { COMMON_PASSWORD_COUNT, isCommonPassword } from "./password-policy.server";
import { verifyPassword } from "./password.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());

const person = { full_name: "Pat Example", phone: null, address: null, date_of_birth: null, emergency_contact: null };
let n = 0;
const email = () => `policy-${++n}@test.example`;
const TOO_COMMON = { status: 422, message: PASSWORD_TOO_COMMON };

describe("the common-password list", () => {
  it("holds SecLists' 100,000 most common passwords, compared without case", async () => {
    expect(COMMON_PASSWORD_COUNT).toBe(100_000);
    for (const p of ["123456", "password123", "PASSWORD123", "Password1", "qwerty123456", "1qaz2wsx3edc"]) expect(await isCommonPassword(p), p).toBe(true);
    for (const p of ["Hoist-Rigger-Kestrel-42", "dogman ticket 7713 ok"]) expect(await isCommonPassword(p), p).toBe(false);
  });
});

describe("every path that sets a password refuses a common one", () => {
  it("self-registration (the form and POST /api/auth/register share registerUser)", async () => {
    await expect(registerUser(db, { ...person, email: email(), password: "password123", role: "student" })).rejects.toMatchObject(TOO_COMMON);
    const response = await call(registerRoute as unknown as RouteModule, "POST", "/api/auth/register", {
      json: { ...person, email: email(), password: "iloveyou1", role: "student" },
    });
    expect(response.status).toBe(422);
    expect(await bodyOf(response)).toMatchObject({ success: false, detail: PASSWORD_TOO_COMMON });
    const { user } = await registerUser(db, { ...person, email: email(), password: "Kestrel-hoist-7", role: "student" });
    expect(user.role).toBe("student");
  });

  it("staff need 12 characters; students keep 6", async () => {
    await expect(registerUser(db, { ...person, email: email(), password: "Kestrel-77x", role: "trainer" })).rejects.toMatchObject({
      status: 422,
      message: passwordTooShort("trainer"),
    });
    await expect(registerUser(db, { ...person, email: email(), password: "qwerty123456", role: "admin" })).rejects.toMatchObject(TOO_COMMON);
    const { pending } = await registerUser(db, { ...person, email: email(), password: "Kestrel-hoist-77", role: "trainer" });
    expect(pending).toBe(true);
    const { user } = await registerUser(db, { ...person, email: email(), password: "Kx7!qz", role: "student" });
    expect(user.role).toBe("student");
  });

  it("Add Student by the office", async () => {
    const input = { ...person, email: email(), password: "letmein1", usi: null, license_number: null, is_active: true };
    await expect(createStudent(db, input, null)).rejects.toMatchObject(TOO_COMMON);
    expect(await db.selectFrom("users").select("id").where("email", "=", input.email).executeTakeFirst()).toBeUndefined();
  });

  it("a password reset by emailed link, by the role of the account", async () => {
    const trainer = await makeUser(db, { role: "trainer", email: email() });
    const outcome = await requestPasswordReset(db, { email: trainer.email, client: "10.9.0.1" });
    if (outcome.kind !== "issued") throw new Error(outcome.kind);
    await expect(resetPassword(db, { token: outcome.token, password: "1q2w3e4r5t6y" })).rejects.toMatchObject(TOO_COMMON);
    await expect(resetPassword(db, { token: outcome.token, password: "Kestrel-77x" })).rejects.toMatchObject({ message: passwordTooShort("trainer") });
    // a refused password leaves the link usable
    expect(await resetPassword(db, { token: outcome.token, password: "Kestrel-hoist-77" })).toMatchObject({ ok: true });
  });

  it("Change password on Account security", async () => {
    const user = await makeUser(db, { email: email(), password: "Original-pass-1" });
    await expect(changePassword(db, { userId: user.id, next: "secret1" })).rejects.toMatchObject(TOO_COMMON);
    const row = await db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword("Original-pass-1", row.password_hash)).toBe(true);
  });
});
