import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECOGNITION_MESSAGES } from "~/schemas/recognition";
import { createTestDb, type TestDb } from "../../tests/support/test-db";

/** The demo shows recognition's licence rule: an RPL for a licence unit, refused with the reason. */
let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: true });
});
afterAll(async () => t.cleanup());

describe("the demo's recognition", () => {
  it("a learner's RPL for a licence unit is refused with the reason, and mailed", async () => {
    const rows = await t.db
      .selectFrom("recognition_applications as r")
      .innerJoin("courses as c", "c.id", "r.course_id")
      .select(["r.id", "r.kind", "r.status", "r.outcome_code", "r.reasons", "c.licence_class"])
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "rpl", status: "refused", outcome_code: null, reasons: RECOGNITION_MESSAGES.licenceUnit(rows[0]!.licence_class!) });
    expect(await t.db.selectFrom("outbox_messages").select("id").where("key", "=", `recognition-decided:${rows[0]!.id}`).execute()).toHaveLength(1);
  });
});
