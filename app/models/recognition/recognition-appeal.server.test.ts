import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAvetmissExport } from "~/avetmiss/export.server";
import { appealInput, resolveInput } from "~/schemas/complaint";
import { recognitionApplyInput, recognitionAuthenticateInput, recognitionDecideInput, RECOGNITION_MESSAGES } from "~/schemas/recognition";
import { grantUnit, makeCourse, makeEnrollment, makeUser } from "../../../tests/support/factories";
import { createTestDb, type TestDb } from "../../../tests/support/test-db";
import { lodgeAppeal } from "../complaints/complaint-lodging.server";
import { resolveComplaint } from "../complaints/complaint-steps.server";
import { assessorChoicesFor, recognitionDecisions } from "./recognition-decisions.server";
import { markRecognitionChecklist } from "../../../tests/support/checklists";
import { applyForRecognition, assignRecognitionAssessor, authenticateCreditTransfer, decideRecognition, getRecognition } from "./recognition.server";

/**
 * Re-deciding a credit transfer or RPL after an upheld appeal (docs/decisions/037-recognition.md):
 * the decision appealed stays in the history, the application goes back for a new decision by a
 * different credentialed assessor where the matrix has one, and AVETMISS reports the latest.
 */

const rto = { name: "Test RTO", code: "12345" };
const ORG = { code: "45678", name: "Test RTO" };
let t: TestDb;
let admin: { id: string };
let office: { id: string };
let first: { id: string };
let second: { id: string };
let student: { id: string };
const asAdmin = () => ({ id: admin.id, role: "admin" as const });
const asStudent = () => ({ id: student.id, role: "student" as const });
const asTrainer = (u: { id: string }) => ({ id: u.id, role: "trainer" as const });

beforeAll(async () => {
  t = await createTestDb();
  admin = await makeUser(t.db, { role: "admin" });
  office = await makeUser(t.db, { role: "admin", full_name: "Office Two" });
  first = await makeUser(t.db, { role: "trainer", full_name: "Aaron First" });
  second = await makeUser(t.db, { role: "trainer", full_name: "Bea Second" });
  student = await makeUser(t.db, { role: "student", full_name: "Riley Rigger" });
});
afterAll(async () => t.cleanup());

let seq = 0;
async function rplEnrollment(options: { onlyFirst?: boolean } = {}) {
  const unit = `RPLA${String(++seq).padStart(4, "0")}`;
  // credit_trainers off: only the trainers named below hold the unit
  const course = await makeCourse(t.db, { unit_code: unit, credit_trainers: false });
  for (const trainer of options.onlyFirst ? [first] : [first, second]) {
    await grantUnit(t.db, trainer.id, unit);
  }
  const enrollment = await makeEnrollment(t.db, student.id, course.id);
  return { unit, enrollment, course };
}

const apply = (enrollmentId: string, kind: "rpl" | "credit_transfer") =>
  applyForRecognition(
    t.db,
    asStudent(),
    recognitionApplyInput.parse({ enrollment_id: enrollmentId, kind, statement: "Two years as a leading hand" }),
    student.id,
  );
const decide = (
  id: string,
  decision: "granted" | "not_granted" | "refused",
  viewer: { id: string; role: "admin" | "trainer" },
  reasons = "Evidence reviewed against the unit",
) => decideRecognition(t.db, viewer, id, recognitionDecideInput.parse({ decision, reasons }), viewer.id);
/** The learner appeals; an admin who did not make the decision decides the appeal. */
async function appealAndDecide(id: string, outcome: "upheld" | "partly" | "dismissed", decider = admin) {
  const appeal = await lodgeAppeal(
    t.db,
    appealInput.parse({ assessment_kind: "recognition", assessment_id: id, details: "My supervisor can confirm the work" }),
    { by: student.id, rto },
  );
  await resolveComplaint(t.db, appeal.id, resolveInput.parse({ outcome, reasons: "The evidence was not weighed against the whole unit" }), decider.id, {
    id: decider.id,
    role: "admin",
  });
  return appeal;
}
const nat120 = async (unit: string) => {
  const year = Number(new Intl.DateTimeFormat("en-CA", { timeZone: "Australia/Sydney" }).format(new Date()).slice(0, 4));
  const report = await getAvetmissExport(t.db, year, ORG);
  const line = report.files.NAT00120.split("\r\n").find((l) => l.slice(30, 42).trim() === unit);
  return line ? { mode: line.slice(68, 71), outcome: line.slice(71, 73) } : undefined;
};

describe("an upheld appeal of an RPL decision", () => {
  it("reopens it for a different credentialed assessor, keeps the decision appealed, and the new decision is what AVETMISS reports", async () => {
    const { unit, enrollment, course } = await rplEnrollment();
    const app = await apply(enrollment.id, "rpl");
    await assignRecognitionAssessor(t.db, asAdmin(), app.id, { assessor_id: first.id }, admin.id);
    const markBy = (assessor: { id: string }) =>
      markRecognitionChecklist(t.db, { applicationId: app.id, courseId: course.id, assessorId: assessor.id, adminId: admin.id });
    await markBy(first);
    await decide(app.id, "not_granted", asTrainer(first), "The logbook does not show the risk assessments");
    expect(await nat120(unit)).toEqual({ mode: "NNN", outcome: "52" });

    const appeal = await appealAndDecide(app.id, "upheld");
    const reopened = await getRecognition(t.db, asAdmin(), app.id);
    expect(reopened).toMatchObject({ status: "applied", outcome_code: null, decided_on: null, reasons: null, assessor: { id: second.id } });
    const history = await recognitionDecisions(t.db, reopened);
    expect(history).toEqual([
      expect.objectContaining({
        status: "not_granted",
        outcome_code: "52",
        reasons: "The logbook does not show the risk assessments",
        assessor: "Aaron First",
        overturned_by_appeal: appeal.reference,
      }),
    ]);
    expect(history[0]!.overturned_at).not.toBeNull();
    // while it waits, AVETMISS reports the enrolment as the training it is, not the overturned 52
    expect((await nat120(unit))?.outcome).not.toBe("52");
    // the appeal's outcome says so, to the learner, and the trail has the reopening
    const complaint = await t.db.selectFrom("complaints").select(["changed_result"]).where("id", "=", appeal.id).executeTakeFirstOrThrow();
    expect(JSON.parse(complaint.changed_result!)).toEqual({ reopened: true });
    const mail = await t.db
      .selectFrom("outbox_messages")
      .select(["recipient_id", "data"])
      .where("key", "=", `complaint-resolved:${appeal.id}`)
      .executeTakeFirstOrThrow();
    expect(mail.recipient_id).toBe(student.id);
    expect(JSON.parse(mail.data)).toMatchObject({ reopened: true });
    const trail = await t.db
      .selectFrom("audit_log")
      .select(["action", "detail"])
      .where("subject_id", "=", app.id)
      .where("action", "=", "recognition.reopened")
      .execute();
    expect(trail).toEqual([{ action: "recognition.reopened", detail: `${unit}: reopened by appeal ${appeal.reference}, assessor ${second.id}` }]);

    // the assessor overturned cannot decide it again while another is credentialed
    await expect(decide(app.id, "granted", asTrainer(first))).rejects.toMatchObject({ status: 404 });
    expect((await assessorChoicesFor(t.db, reopened)).map((c) => c.id)).toEqual([second.id]);
    await expect(assignRecognitionAssessor(t.db, asAdmin(), app.id, { assessor_id: first.id }, admin.id)).rejects.toMatchObject({
      status: 409,
      message: RECOGNITION_MESSAGES.earlierAssessor,
      field: "assessor_id",
    });

    // the overturned assessor's marks are not the new assessor's judgement
    await expect(decide(app.id, "granted", asTrainer(second))).rejects.toMatchObject({ status: 409, message: RECOGNITION_MESSAGES.checklistUnmarked });
    await markBy(second);
    const granted = await decide(app.id, "granted", asTrainer(second), "Supervisor's report confirms the risk assessments");
    expect(granted).toMatchObject({ status: "granted", outcome_code: "51", assessor: { id: second.id } });
    expect((await recognitionDecisions(t.db, granted)).map((d) => [d.outcome_code, d.overturned_by_appeal])).toEqual([
      ["52", appeal.reference],
      ["51", null],
    ]);
    expect(await nat120(unit)).toEqual({ mode: "NNN", outcome: "51" });
    // both decisions were mailed, each under its own key
    const keys = (await t.db.selectFrom("outbox_messages").select("key").where("key", "like", `recognition-decided:${app.id}%`).orderBy("key").execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual([`recognition-decided:${app.id}`, `recognition-decided:${app.id}:2`]);
  });

  it("goes back to the same assessor when the matrix credentials nobody else", async () => {
    const { enrollment, course } = await rplEnrollment({ onlyFirst: true });
    const app = await apply(enrollment.id, "rpl");
    await assignRecognitionAssessor(t.db, asAdmin(), app.id, { assessor_id: first.id }, admin.id);
    await decide(app.id, "not_granted", asTrainer(first));
    await appealAndDecide(app.id, "partly");
    expect(await getRecognition(t.db, asAdmin(), app.id)).toMatchObject({ status: "applied", assessor: { id: first.id } });
    await assignRecognitionAssessor(t.db, asAdmin(), app.id, { assessor_id: first.id }, admin.id);
    await markRecognitionChecklist(t.db, { applicationId: app.id, courseId: course.id, assessorId: first.id, adminId: admin.id });
    expect(await decide(app.id, "granted", asTrainer(first))).toMatchObject({ status: "granted", outcome_code: "51" });
  });

  it("a dismissed appeal leaves the decision as it was", async () => {
    const { enrollment } = await rplEnrollment();
    const app = await apply(enrollment.id, "rpl");
    await assignRecognitionAssessor(t.db, asAdmin(), app.id, { assessor_id: first.id }, admin.id);
    await decide(app.id, "not_granted", asTrainer(first));
    await appealAndDecide(app.id, "dismissed");
    const r = await getRecognition(t.db, asAdmin(), app.id);
    expect(r).toMatchObject({ status: "not_granted", outcome_code: "52", assessor: { id: first.id } });
    expect((await recognitionDecisions(t.db, r)).map((d) => d.overturned_at)).toEqual([null]);
  });
});

describe("an upheld appeal of a credit transfer refusal", () => {
  it("goes back to the office with its authentication, and a grant then records 60", async () => {
    const { unit, enrollment } = await rplEnrollment();
    const app = await apply(enrollment.id, "credit_transfer");
    await decide(app.id, "refused", asAdmin(), "No document from the other RTO");
    // the admin who refused it does not decide the appeal: another does
    const appeal = await appealAndDecide(app.id, "upheld", office);
    const reopened = await getRecognition(t.db, asAdmin(), app.id);
    expect(reopened).toMatchObject({ status: "applied", outcome_code: null, assessor: null });
    await authenticateCreditTransfer(
      t.db,
      asAdmin(),
      app.id,
      recognitionAuthenticateInput.parse({
        issuing_rto_code: "90001",
        document_number: "SOA-2024-118",
        checked_how: "Confirmed with the issuing RTO by phone",
        checked_on: "2026-12-01",
        equivalence: "same",
      }),
      admin.id,
    );
    expect(await decide(app.id, "granted", asAdmin())).toMatchObject({ status: "granted", outcome_code: "60" });
    expect((await recognitionDecisions(t.db, reopened)).map((d) => [d.status, d.overturned_by_appeal])).toEqual([
      ["refused", appeal.reference],
      ["granted", null],
    ]);
    expect(await nat120(unit)).toEqual({ mode: "NNN", outcome: "60" });
  });
});

describe("what an upheld appeal does not reopen", () => {
  it("a licence unit's refusal stays refused: licensing rules win", async () => {
    const { enrollment } = await rplEnrollment();
    await t.db
      .updateTable("courses")
      .set({ licence_class: "DG" })
      .where("id", "=", (await t.db.selectFrom("enrollments").select("course_id").where("id", "=", enrollment.id).executeTakeFirstOrThrow()).course_id)
      .execute();
    const app = await apply(enrollment.id, "credit_transfer");
    expect(app.status).toBe("refused");
    // nobody judged it (the portal's rule), so there is no decision to appeal
    await expect(
      lodgeAppeal(t.db, appealInput.parse({ assessment_kind: "recognition", assessment_id: app.id, details: "I hold the licence in another state" }), {
        by: student.id,
        rto,
      }),
    ).rejects.toMatchObject({ status: 409 });
    expect((await recognitionDecisions(t.db, app)).map((d) => [d.status, d.decided_by])).toEqual([["refused", null]]);
  });
});
