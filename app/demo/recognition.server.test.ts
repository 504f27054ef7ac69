import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAvetmissExport } from "~/avetmiss/export.server";
import { checklistMarkedBy } from "~/models/standards/checklist.server";
import { credentialProblem } from "~/models/standards/trainer-credential.server";
import { RECOGNITION_MESSAGES } from "~/schemas/recognition";
import { organisationToday } from "~/utils/organisation-calendar";
import { createTestDb, type TestDb } from "../../tests/support/test-db";
import { DEMO_RECOGNITION_COURSE } from "./data";
import { DEMO_RECOGNITION_LEARNERS } from "./recognition.server";

/**
 * The demo's recognition (issue 56 point 7): a licence unit's RPL refused with the reason, and
 * on the WHS unit a credit transfer (60), an RPL granted (51) and one not granted (52) under an
 * open appeal, which the AVETMISS export carries with delivery mode NNN.
 */
let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: true });
});
afterAll(async () => t.cleanup());

const applications = () =>
  t.db
    .selectFrom("recognition_applications as r")
    .innerJoin("courses as c", "c.id", "r.course_id")
    .innerJoin("users as u", "u.id", "r.student_id")
    .select([
      "r.id",
      "r.kind",
      "r.status",
      "r.outcome_code",
      "r.reasons",
      "r.assessor_id",
      "r.decided_on",
      "r.issuing_rto_code",
      "r.document_number",
      "r.checked_how",
      "r.checked_on",
      "r.checked_by",
      "c.licence_class",
      "c.unit_code",
      "u.email",
    ])
    .orderBy("u.email")
    .execute();

describe("the demo's recognition", () => {
  it("a learner's RPL for a licence unit is refused with the reason, and mailed", async () => {
    const rows = (await applications()).filter((r) => r.licence_class);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "rpl", status: "refused", outcome_code: null, reasons: RECOGNITION_MESSAGES.licenceUnit(rows[0]!.licence_class!) });
    expect(await t.db.selectFrom("outbox_messages").select("id").where("key", "=", `recognition-decided:${rows[0]!.id}`).execute()).toHaveLength(1);
  });

  it("on the WHS unit: a credit transfer authenticated and granted, an RPL granted by a credentialed assessor, one not granted under an open appeal", async () => {
    const rows = (await applications()).filter((r) => r.unit_code === DEMO_RECOGNITION_COURSE.unit_code);
    const of = (email: string) => rows.find((r) => r.email === email)!;
    expect(rows).toHaveLength(3);
    expect(of(DEMO_RECOGNITION_LEARNERS.creditTransfer)).toMatchObject({
      kind: "credit_transfer",
      status: "granted",
      outcome_code: "60",
      issuing_rto_code: "90001",
      document_number: "SOA-2024-04417",
    });
    const ct = of(DEMO_RECOGNITION_LEARNERS.creditTransfer);
    expect(ct.checked_how && ct.checked_on && ct.checked_by).toBeTruthy();
    const yes = of(DEMO_RECOGNITION_LEARNERS.rplGranted);
    expect(yes).toMatchObject({ kind: "rpl", status: "granted", outcome_code: "51" });
    const trainer = await t.db.selectFrom("users").select("id").where("email", "=", "trainer@example.com").executeTakeFirstOrThrow();
    expect(yes.assessor_id).toBe(trainer.id);
    expect(await credentialProblem(t.db, trainer.id, DEMO_RECOGNITION_COURSE.unit_code, [yes.decided_on!])).toBeNull();
    // granted on the unit's reviewed checklist, every item marked by its assessor before the decision
    const course = await t.db.selectFrom("courses").select("id").where("unit_code", "=", DEMO_RECOGNITION_COURSE.unit_code).executeTakeFirstOrThrow();
    expect(await checklistMarkedBy(t.db, { assessment: { kind: "recognition", id: yes.id }, courseId: course.id, markedBy: trainer.id })).toEqual({
      reviewed: true,
      marked: true,
    });
    const no = of(DEMO_RECOGNITION_LEARNERS.rplNotGranted);
    expect(no).toMatchObject({ kind: "rpl", status: "not_granted", outcome_code: "52", assessor_id: trainer.id });
    expect(no.reasons).toBeTruthy();
    const appeal = await t.db
      .selectFrom("complaints")
      .select(["status", "assessor_id", "decider_id"])
      .where("assessment_kind", "=", "recognition")
      .where("assessment_id", "=", no.id)
      .executeTakeFirstOrThrow();
    expect(appeal.status).not.toBe("resolved");
    expect(appeal.assessor_id).toBe(trainer.id);
    expect(appeal.decider_id).not.toBeNull();
    expect(appeal.decider_id).not.toBe(trainer.id);
    // the RPL grant has its statement of attainment; the credited unit has none (the other RTO's stands)
    const certs = await t.db
      .selectFrom("recognition_applications as r")
      .leftJoin("certificates as c", "c.enrollment_id", "r.enrollment_id")
      .select(["r.outcome_code", "c.id as certificate_id"])
      .where("r.outcome_code", "in", ["51", "60"])
      .execute();
    expect(Object.fromEntries(certs.map((c) => [c.outcome_code, Boolean(c.certificate_id)]))).toEqual({ "51": true, "60": false });
  });

  it("the AVETMISS export carries 60, 51 and 52 with delivery mode NNN and passes its checks for them", async () => {
    const year = Number(organisationToday().slice(0, 4));
    const report = await getAvetmissExport(t.db, year, { code: "45678", name: "Summit" });
    const lines = report.files.NAT00120.split("\r\n").filter((l) => l.slice(30, 42).trim() === DEMO_RECOGNITION_COURSE.unit_code);
    expect(lines.map((l) => [l.slice(68, 71), l.slice(71, 73), l.slice(157, 158)]).sort()).toEqual([
      ["NNN", "51", "N"],
      ["NNN", "52", "N"],
      ["NNN", "60", "N"],
    ]);
    expect(report.issues.filter((i) => i.file === "NAT00120" && i.key.endsWith(DEMO_RECOGNITION_COURSE.unit_code))).toEqual([]);
    expect(report.files.NAT00060).toContain(DEMO_RECOGNITION_COURSE.unit_code);
  });
});
