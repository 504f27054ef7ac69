import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as usiPage from "~/routes/trainer+/usi.$studentId";
import { USI_ALREADY_VERIFIED, USI_MISSING } from "~/models/usi.server";
import { createTestDb, useAsAppDb } from "../../../tests/support/test-db";
import { makeUser } from "../../../tests/support/factories";
import { bodyOf, call, sessionCookie, type RouteModule } from "../../../tests/support/api-calls";

/**
 * Recording a USI as verified: the form is its button alone, answered through answerForm. A
 * refusal is the page's one message (an Alert and a toast), never an error beside a field,
 * even when the model names the USI field.
 */
let db: DB;
let cleanup: () => Promise<void>;
let cookie: string;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  cookie = await sessionCookie(db, (await makeUser(db, { role: "trainer" })).id);
});
afterAll(() => cleanup());

const record = (studentId: string) =>
  call(usiPage as unknown as RouteModule, "POST", `/trainer/usi/${studentId}`, {
    cookie,
    params: { studentId },
    body: "",
    contentType: "application/x-www-form-urlencoded",
  });

describe("trainer records a USI as verified", () => {
  it("goes to the certificates with the message", async () => {
    const student = await makeUser(db, { role: "student", usi_verified: false });
    const answer = await record(student.id);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/trainer/certificates");
    const row = await db.selectFrom("users").select("usi_verified_at").where("id", "=", student.id).executeTakeFirstOrThrow();
    expect(row.usi_verified_at).not.toBeNull();
  });

  it("answers a refusal with its status, its message as a toast and no field errors", async () => {
    const missing = await makeUser(db, { role: "student", usi: null });
    const refused = await record(missing.id);
    expect(refused.status).toBe(422);
    expect(await bodyOf(refused)).toMatchObject({
      error: USI_MISSING,
      status: 422,
      fieldErrors: {},
      values: {},
      toast: { type: "error", message: USI_MISSING },
    });

    const verified = await makeUser(db, { role: "student" });
    const again = await record(verified.id);
    expect(again.status).toBe(409);
    expect(await bodyOf(again)).toMatchObject({ error: USI_ALREADY_VERIFIED, fieldErrors: {}, toast: { message: USI_ALREADY_VERIFIED } });
  });
});
