import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction } from "#db/connection";
import { localFileStore } from "~/files/store.server";
import { readUpload } from "~/files/upload.server";
import { appealInput } from "~/schemas/complaint";
import { recognitionApplyInput, recognitionAuthenticateInput, recognitionDecideInput, RECOGNITION_MESSAGES } from "~/schemas/recognition";
import { pngImage, multipartRequest } from "../../../tests/support/evidence-files";
import { makeCourse, makeEnrollment, makeUser } from "../../../tests/support/factories";
import { createTestDb, type TestDb } from "../../../tests/support/test-db";
import { markRecognitionChecklist, reviewedChecklist } from "../../../tests/support/checklists";
import { organisation } from "~/env.server";
import { coursePatchSchema } from "~/schemas/course";
import { updateCourse } from "../course-admin.server";
import { getAvetmissExport } from "~/avetmiss/export.server";
import { issueCertificate } from "../certificates/certificate-issue.server";
import { awaitingEnrollments } from "../certificates/certificate-due.server";
import { lodgeAppeal } from "../complaints/complaint-lodging.server";
import { billSelfEnrollment, invoiceSelfEnrollment } from "../finance/enrollment-invoice.server";
import { evidenceFileFor } from "../evidence.server";
import { checkedStatement } from "../../../tests/support/recognition";
import {
  addRecognitionEvidence,
  applyForRecognition,
  assignRecognitionAssessor,
  authenticateCreditTransfer,
  creditedOnly,
  decideRecognition,
  getRecognition,
  listRecognitions,
  recognisedUnitsOf,
  RECOGNITION_LIST_LIMIT,
  recognitionRegisterRows,
} from "./recognition.server";

const rto = { name: "Test RTO", code: "12345" };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "recognition-model-"));
let t: TestDb;
let admin: { id: string };
let assessor: { id: string };
let uncredentialed: { id: string };
let student: { id: string };
let other: { id: string };
const asAdmin = () => ({ id: admin.id, role: "admin" as const });
const asStudent = () => ({ id: student.id, role: "student" as const });
const asAssessor = () => ({ id: assessor.id, role: "trainer" as const });

beforeAll(async () => {
  t = await createTestDb();
  admin = await makeUser(t.db, { role: "admin" });
  assessor = await makeUser(t.db, { role: "trainer", full_name: "Assessor One" });
  uncredentialed = await makeUser(t.db, { role: "trainer", credentialed: false });
  student = await makeUser(t.db, { role: "student", full_name: "Riley Rigger" });
  other = await makeUser(t.db, { role: "student" });
});
afterAll(async () => {
  await t.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

let unitSeq = 0;
async function enrollmentIn(options: { licence?: string; rplFee?: number; price?: number; studentId?: string } = {}) {
  const unit = `RPLT${String(++unitSeq).padStart(4, "0")}`;
  const course = await makeCourse(t.db, { unit_code: unit, price: options.price ?? 500 });
  await t.db
    .updateTable("courses")
    .set({ licence_class: options.licence ?? null, rpl_fee_cents: options.rplFee ?? 0 })
    .where("id", "=", course.id)
    .execute();
  const enrollment = await makeEnrollment(t.db, options.studentId ?? student.id, course.id);
  return { course, enrollment, unit };
}

const apply = (enrollmentId: string, kind: "credit_transfer" | "rpl", viewer = asStudent()) =>
  applyForRecognition(
    t.db,
    viewer,
    recognitionApplyInput.parse({ enrollment_id: enrollmentId, kind, statement: "I hold this unit from another RTO" }),
    viewer.id,
  );

const authenticate = (id: string) => authenticateCreditTransfer(t.db, asAdmin(), id, checkedStatement(), admin.id);

const decide = (id: string, decision: "granted" | "not_granted" | "refused", viewer: { id: string; role: "admin" | "trainer" | "student" } = asAdmin()) =>
  decideRecognition(t.db, viewer, id, recognitionDecideInput.parse({ decision, reasons: "Evidence reviewed against the unit" }), viewer.id);

/** The assessor's marks on every item of the unit's reviewed checklist, which an RPL grant needs. */
const markAll = (applicationId: string, courseId: string) =>
  markRecognitionChecklist(t.db, { applicationId, courseId, assessorId: assessor.id, adminId: admin.id });

const audit = async (id: string) => (await t.db.selectFrom("audit_log").select(["action"]).where("subject_id", "=", id).execute()).map((r) => r.action);
const mails = async (id: string) =>
  t.db.selectFrom("outbox_messages").select(["template", "recipient_id"]).where("key", "=", `recognition-decided:${id}`).execute();

describe("credit transfer", () => {
  it("is granted as outcome 60 dated the day granted, once authenticated; the unit leaves the timetable and its fee is credited", async () => {
    const { course, enrollment, unit } = await enrollmentIn({ price: 500 });
    const now = new Date();
    await writeTransaction(t.db, async (trx) =>
      invoiceSelfEnrollment(
        trx,
        (await billSelfEnrollment(trx, {
          enrollmentId: enrollment.id,
          studentId: student.id,
          course: { id: course.id, name: "Unit", unit_code: unit, price_cents: 50000 },
          classStart: null,
          actorId: student.id,
          now,
        }))!,
      ),
    );
    const app = await apply(enrollment.id, "credit_transfer");
    expect(app.status).toBe("applied");
    // no grant before the document's authentication is on record
    await expect(decide(app.id, "granted")).rejects.toMatchObject({ status: 409, message: RECOGNITION_MESSAGES.noAuthentication });
    await authenticate(app.id);
    const granted = await decide(app.id, "granted");
    expect(granted).toMatchObject({
      status: "granted",
      outcome_code: "60",
      authentication: { issuing_rto_code: "90001", document_number: "SOA-778", checked_on: "2026-12-01" },
    });
    expect(granted.decided_on).toBe(new Intl.DateTimeFormat("en-CA", { timeZone: "Australia/Sydney" }).format(now));
    const e = await t.db.selectFrom("enrollments").selectAll().where("id", "=", enrollment.id).executeTakeFirstOrThrow();
    expect(e).toMatchObject({ status: "completed", class_id: null });
    const note = await t.db.selectFrom("credit_notes").selectAll().where("id", "=", granted.credit_note_id!).executeTakeFirstOrThrow();
    expect(note.amount_cents).toBe(50000);
    expect(await audit(app.id)).toEqual(expect.arrayContaining(["recognition.applied", "recognition.authenticated", "recognition.decided"]));
    expect(await mails(app.id)).toEqual([{ template: "recognition-decided", recipient_id: student.id }]);
    expect(await creditedOnly(t.db, enrollment.id)).toBe(true);
    expect(await recognisedUnitsOf(t.db, student.id)).toEqual(expect.arrayContaining([expect.objectContaining({ unit_code: unit, how: "Credit transfer" })]));
    // a second application for the unit is refused
    await expect(apply(enrollment.id, "rpl")).rejects.toMatchObject({ status: 409 });
  });

  it("is decided only by an admin, and a refusal keeps its reason", async () => {
    const { enrollment } = await enrollmentIn();
    const app = await apply(enrollment.id, "credit_transfer");
    await expect(decide(app.id, "granted", asAssessor())).rejects.toMatchObject({ status: 404 });
    await expect(
      authenticateCreditTransfer(
        t.db,
        asStudent(),
        app.id,
        recognitionAuthenticateInput.parse({
          issuing_rto_code: "90001",
          document_number: "X",
          checked_how: "x",
          checked_on: "2026-12-01",
          equivalence: "same",
        }),
        student.id,
      ),
    ).rejects.toMatchObject({ status: 404 });
    const refused = await decide(app.id, "refused");
    expect(refused).toMatchObject({ status: "refused", outcome_code: null, reasons: "Evidence reviewed against the unit" });
    expect((await t.db.selectFrom("enrollments").select("status").where("id", "=", enrollment.id).executeTakeFirstOrThrow()).status).toBe("enrolled");
  });

  it("refuses a date checked in the future and this RTO's own code, at their fields, storing nothing", async () => {
    const { enrollment } = await enrollmentIn();
    const app = await apply(enrollment.id, "credit_transfer");
    const base = { issuing_rto_code: "90001", document_number: "SOA-9", checked_how: "Registry", checked_on: "2026-12-01", equivalence: "same" };
    const future = recognitionAuthenticateInput.safeParse({ ...base, checked_on: "2027-12-01" });
    expect(future.error?.issues).toEqual([expect.objectContaining({ path: ["checked_on"], message: "Date checked cannot be in the future" })]);
    const own = authenticateCreditTransfer(
      t.db,
      asAdmin(),
      app.id,
      recognitionAuthenticateInput.parse({ ...base, issuing_rto_code: organisation().code }),
      admin.id,
    );
    await expect(own).rejects.toMatchObject({ status: 422, fieldErrors: { issuing_rto_code: RECOGNITION_MESSAGES.ownRtoCode } });
    expect((await getRecognition(t.db, asAdmin(), app.id)).authentication).toBeNull();
    await expect(decide(app.id, "granted")).rejects.toMatchObject({ status: 409, message: RECOGNITION_MESSAGES.noAuthentication });
  });

  it("records an equivalent or superseding unit with its mapping, and asks for the unit held", () => {
    const base = { issuing_rto_code: "90001", document_number: "T-1", checked_how: "Registry", checked_on: "2026-12-01" };
    const missing = recognitionAuthenticateInput.safeParse({ ...base, equivalence: "superseding" });
    expect(missing.success).toBe(false);
    expect(missing.error!.issues[0]).toMatchObject({ path: ["held_unit_code"], message: RECOGNITION_MESSAGES.heldUnitNeeded });
    expect(
      recognitionAuthenticateInput.parse({ ...base, equivalence: "superseding", held_unit_code: "TLILIC2001", mapping: "Superseded, equivalent" }),
    ).toMatchObject({ held_unit_code: "TLILIC2001" });
    expect(recognitionAuthenticateInput.safeParse({ ...base, issuing_rto_code: "abc", equivalence: "same" }).success).toBe(false);
  });
});

describe("recognition of prior learning", () => {
  it("invoices the RPL fee an administrator set on the course when a learner applies", async () => {
    const { course, enrollment } = await enrollmentIn();
    const edited = await updateCourse(t.db, course.id, coursePatchSchema.parse({ rpl_fee: "150" }), admin.id);
    expect(edited.rpl_fee).toBe(150);
    const app = await apply(enrollment.id, "rpl");
    const invoice = await t.db.selectFrom("invoices").selectAll().where("id", "=", app.fee_invoice_id!).executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ source_kind: "recognition", source_id: app.id, buyer_id: student.id, total_cents: 15000 });
    // a fee of 0 is no fee: no invoice
    const free = await enrollmentIn();
    await updateCourse(t.db, free.course.id, coursePatchSchema.parse({ rpl_fee: 0 }), admin.id);
    expect((await apply(free.enrollment.id, "rpl")).fee_invoice_id).toBeNull();
    expect(coursePatchSchema.safeParse({ rpl_fee: "-5" }).error?.issues[0]).toMatchObject({ path: ["rpl_fee"], message: "RPL fee cannot be negative" });
  });

  it("asks for the unit when none is chosen", () => {
    const none = recognitionApplyInput.safeParse({ enrollment_id: "", kind: "rpl", statement: "Work done" });
    expect(none.error?.issues).toEqual([expect.objectContaining({ path: ["enrollment_id"], message: RECOGNITION_MESSAGES.chooseUnit })]);
  });

  it("invoices the course's RPL fee on application", async () => {
    const { enrollment } = await enrollmentIn({ rplFee: 25000 });
    const app = await apply(enrollment.id, "rpl");
    const invoice = await t.db.selectFrom("invoices").selectAll().where("id", "=", app.fee_invoice_id!).executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ source_kind: "recognition", source_id: app.id, buyer_id: student.id, total_cents: 25000 });
  });

  it("needs a credentialed assessor, who alone decides 51 or 52; the decision is mailed and appealable", async () => {
    const { enrollment } = await enrollmentIn();
    const app = await apply(enrollment.id, "rpl");
    await expect(decide(app.id, "granted", asAssessor())).rejects.toMatchObject({ status: 404 });
    await expect(assignRecognitionAssessor(t.db, asAdmin(), app.id, { assessor_id: uncredentialed.id }, admin.id)).rejects.toMatchObject({
      status: 409,
      field: "assessor_id",
    });
    await assignRecognitionAssessor(t.db, asAdmin(), app.id, { assessor_id: assessor.id }, admin.id);
    // an admin cannot judge competence in the assessor's place, and the assessor cannot refuse (the office's call): each is told the real rule
    await expect(decide(app.id, "granted", asAdmin())).rejects.toMatchObject({ status: 409, message: RECOGNITION_MESSAGES.notAssessor });
    expect(RECOGNITION_MESSAGES.notAssessor).not.toMatch(/or an administrator\) decides/);
    await expect(decide(app.id, "refused", asAssessor())).rejects.toMatchObject({ status: 409, message: RECOGNITION_MESSAGES.onlyAdminRefuses });
    // a learner (or anyone but an active trainer) is not a choice of assessor, and nobody is named
    const notTrainer = assignRecognitionAssessor(t.db, asAdmin(), app.id, { assessor_id: student.id }, admin.id);
    await expect(notTrainer).rejects.toMatchObject({
      status: 422,
      message: RECOGNITION_MESSAGES.chooseTrainer,
      fieldErrors: { assessor_id: RECOGNITION_MESSAGES.chooseTrainer },
    });
    expect((await getRecognition(t.db, asAdmin(), app.id)).assessor?.id).toBe(assessor.id);
    const decided = await decide(app.id, "not_granted", asAssessor());
    expect(decided).toMatchObject({ status: "not_granted", outcome_code: "52", assessor: { id: assessor.id } });
    expect((await t.db.selectFrom("enrollments").select("status").where("id", "=", enrollment.id).executeTakeFirstOrThrow()).status).toBe("enrolled");
    expect(await mails(app.id)).toHaveLength(1);
    const appeal = await lodgeAppeal(
      t.db,
      appealInput.parse({ assessment_kind: "recognition", assessment_id: app.id, details: "My logbook shows two years of dogging" }),
      { by: student.id, rto },
    );
    expect(appeal.reference).toMatch(/^A-/);
    const row = await t.db.selectFrom("complaints").selectAll().where("id", "=", appeal.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ assessment_kind: "recognition", assessor_id: assessor.id });
  });

  it("granted: outcome 51 and the enrolment is complete, once the assessor has marked every item of the unit's reviewed checklist", async () => {
    const { course, enrollment, unit } = await enrollmentIn();
    const app = await apply(enrollment.id, "rpl");
    await assignRecognitionAssessor(t.db, asAdmin(), app.id, { assessor_id: assessor.id }, admin.id);
    const stillApplied = async () => expect((await getRecognition(t.db, asAdmin(), app.id)).status).toBe("applied");
    // no reviewed checklist for the unit: nothing to judge against
    await expect(decide(app.id, "granted", asAssessor())).rejects.toMatchObject({ status: 409, message: RECOGNITION_MESSAGES.noChecklist, field: "decision" });
    expect(RECOGNITION_MESSAGES.noChecklist).toMatch(/^Mark every item of the unit's checklist before granting/);
    await stillApplied();
    // a reviewed checklist nobody marked on this application
    await reviewedChecklist(t.db, course.id, admin.id);
    await expect(decide(app.id, "granted", asAssessor())).rejects.toMatchObject({ status: 409, message: RECOGNITION_MESSAGES.checklistUnmarked });
    await stillApplied();
    // marks on another application of the unit do not count for this one
    const otherApp = await apply((await makeEnrollment(t.db, other.id, course.id)).id, "rpl", { id: other.id, role: "student" as const });
    await assignRecognitionAssessor(t.db, asAdmin(), otherApp.id, { assessor_id: assessor.id }, admin.id);
    await markAll(otherApp.id, course.id);
    await expect(decide(app.id, "granted", asAssessor())).rejects.toMatchObject({ status: 409, message: RECOGNITION_MESSAGES.checklistUnmarked });
    await stillApplied();
    await markAll(app.id, course.id);
    const decided = await decide(app.id, "granted", asAssessor());
    expect(decided.outcome_code).toBe("51");
    expect((await t.db.selectFrom("enrollments").select("status").where("id", "=", enrollment.id).executeTakeFirstOrThrow()).status).toBe("completed");
    expect(await creditedOnly(t.db, enrollment.id)).toBe(false);
    expect(await recognisedUnitsOf(t.db, student.id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ unit_code: unit, how: "Recognition of prior learning" })]),
    );
  });

  it("takes evidence through the evidence store from its learner, served only to those who may see it", async () => {
    const { enrollment } = await enrollmentIn();
    const app = await apply(enrollment.id, "rpl");
    const store = localFileStore(path.join(dir, "files"));
    const read = await readUpload(multipartRequest("http://localhost/recognition/x", {}, [{ field: "files", name: "logbook.png", bytes: await pngImage() }]));
    try {
      const files = await addRecognitionEvidence(t.db, store, asStudent(), { id: app.id, actor: student.id, files: read.files, dir: read.dir });
      expect(files).toHaveLength(1);
      expect(await evidenceFileFor(t.db, asStudent(), files[0]!.id)).not.toBeNull();
      expect(await evidenceFileFor(t.db, { id: other.id, role: "student" }, files[0]!.id)).toBeNull();
    } finally {
      read.dispose();
    }
    await expect(addRecognitionEvidence(t.db, store, { id: other.id, role: "student" }, { id: app.id, actor: other.id, files: [], dir })).rejects.toMatchObject(
      { status: 404 },
    );
  });
});

describe("licensing rules win", () => {
  it("every licence unit in the demo is refused by credit transfer and by RPL, with the reason", async () => {
    const demo = await createTestDb({ seed: true });
    try {
      const licenceUnits = await demo.db.selectFrom("courses").select(["id", "licence_class"]).where("licence_class", "is not", null).execute();
      expect(licenceUnits.length).toBeGreaterThan(0);
      // one learner per kind: a learner enrols in a unit once
      const learners = { credit_transfer: await makeUser(demo.db, { role: "student" }), rpl: await makeUser(demo.db, { role: "student" }) };
      for (const u of licenceUnits) {
        for (const kind of ["credit_transfer", "rpl"] as const) {
          const learner = learners[kind];
          const viewer = { id: learner.id, role: "student" as const };
          await demo.db.updateTable("courses").set({ rpl_fee_cents: 10000 }).where("id", "=", u.id).execute();
          const enrollment = await makeEnrollment(demo.db, learner.id, u.id);
          const app = await applyForRecognition(
            demo.db,
            viewer,
            recognitionApplyInput.parse({ enrollment_id: enrollment.id, kind, statement: "I have years of experience" }),
            learner.id,
          );
          expect(app, `${u.licence_class} ${kind}`).toMatchObject({
            status: "refused",
            outcome_code: null,
            fee_invoice_id: null,
            reasons: RECOGNITION_MESSAGES.licenceUnit(u.licence_class!),
          });
          const mailed = await demo.db.selectFrom("outbox_messages").select("id").where("key", "=", `recognition-decided:${app.id}`).execute();
          expect(mailed).toHaveLength(1);
        }
      }
    } finally {
      await demo.cleanup();
    }
  });

  it("a licence unit is never granted, even if its class was set after the application", async () => {
    const { enrollment, course } = await enrollmentIn();
    const app = await apply(enrollment.id, "credit_transfer");
    await authenticate(app.id);
    await t.db.updateTable("courses").set({ licence_class: "DG" }).where("id", "=", course.id).execute();
    await expect(decide(app.id, "granted")).rejects.toMatchObject({ status: 409, message: RECOGNITION_MESSAGES.licenceUnit("DG") });
  });
});

describe("who sees what", () => {
  it("the learner their own, a trainer what they assess, admins all; others are told it does not exist", async () => {
    const { enrollment } = await enrollmentIn({ studentId: other.id });
    const app = await apply(enrollment.id, "rpl", { id: other.id, role: "student" });
    await expect(getRecognition(t.db, asStudent(), app.id)).rejects.toMatchObject({ status: 404 });
    await expect(getRecognition(t.db, asAssessor(), app.id)).rejects.toMatchObject({ status: 404 });
    expect((await getRecognition(t.db, asAdmin(), app.id)).id).toBe(app.id);
    expect((await listRecognitions(t.db, asStudent())).every((r) => r.student.id === student.id)).toBe(true);
    expect((await listRecognitions(t.db, asAssessor())).every((r) => r.assessor?.id === assessor.id)).toBe(true);
    expect(
      (await listRecognitions(t.db, asAdmin(), { kind: "credit_transfer", status: "granted" })).every(
        (r) => r.kind === "credit_transfer" && r.status === "granted",
      ),
    ).toBe(true);
    // a learner cannot apply on someone else's enrolment
    await expect(apply(enrollment.id, "credit_transfer")).rejects.toMatchObject({ status: 404 });
  });
});

describe("AVETMISS", () => {
  const ORG = { code: "45678", name: "Test RTO" };
  const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(0, 4)}`;
  const nat120 = async (unit: string) => {
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Australia/Sydney" }).format(new Date());
    const report = await getAvetmissExport(t.db, Number(today.slice(0, 4)), ORG);
    const line = report.files.NAT00120.split("\r\n").find((l) => l.slice(30, 42).trim() === unit);
    return {
      report,
      today,
      line: line!,
      fields: line && {
        start: line.slice(52, 60),
        end: line.slice(60, 68),
        mode: line.slice(68, 71),
        outcome: line.slice(71, 73),
        predominant: line.slice(157, 158),
      },
    };
  };

  it("reports 60, 51 and 52 with delivery mode NNN and predominant mode N, dated as decided", async () => {
    const ct = await enrollmentIn();
    const ctApp = await apply(ct.enrollment.id, "credit_transfer");
    await authenticate(ctApp.id);
    await decide(ctApp.id, "granted");
    const rplYes = await enrollmentIn();
    const yes = await apply(rplYes.enrollment.id, "rpl");
    await assignRecognitionAssessor(t.db, asAdmin(), yes.id, { assessor_id: assessor.id }, admin.id);
    await markAll(yes.id, rplYes.course.id);
    await decide(yes.id, "granted", asAssessor());
    const rplNo = await enrollmentIn();
    const no = await apply(rplNo.enrollment.id, "rpl");
    await assignRecognitionAssessor(t.db, asAdmin(), no.id, { assessor_id: assessor.id }, admin.id);
    await decide(no.id, "not_granted", asAssessor());

    const a = await nat120(ct.unit);
    expect(a.fields).toEqual({ start: ddmmyyyy(a.today), end: ddmmyyyy(a.today), mode: "NNN", outcome: "60", predominant: "N" });
    expect((await nat120(rplYes.unit)).fields).toMatchObject({
      start: ddmmyyyy(a.today),
      end: ddmmyyyy(a.today),
      mode: "NNN",
      outcome: "51",
      predominant: "N",
    });
    expect((await nat120(rplNo.unit)).fields).toMatchObject({ mode: "NNN", outcome: "52", predominant: "N" });
    // an ordinary enrolment keeps its classroom delivery
    const plain = await enrollmentIn();
    await t.db.updateTable("enrollments").set({ status: "in_progress" }).where("id", "=", plain.enrollment.id).execute();
    expect((await nat120(plain.unit)).fields).toMatchObject({ mode: "YNN", predominant: "I" });
    expect(
      a.report.issues.filter(
        (i) => i.file === "NAT00120" && i.field === "Outcome identifier - national" && (i.key.endsWith(ct.unit) || i.key.endsWith(rplYes.unit)),
      ),
    ).toEqual([]);
  });

  it("the readiness list flags a credit transfer without its authentication and an RPL decision without an assessor", async () => {
    const ct = await enrollmentIn();
    const ctApp = await apply(ct.enrollment.id, "credit_transfer");
    await authenticate(ctApp.id);
    await decide(ctApp.id, "granted");
    await t.db.updateTable("recognition_applications").set({ document_number: null }).where("id", "=", ctApp.id).execute();
    const rpl = await enrollmentIn();
    const rplApp = await apply(rpl.enrollment.id, "rpl");
    await assignRecognitionAssessor(t.db, asAdmin(), rplApp.id, { assessor_id: assessor.id }, admin.id);
    await markAll(rplApp.id, rpl.course.id);
    await decide(rplApp.id, "granted", asAssessor());
    await t.db.updateTable("recognition_applications").set({ assessor_id: null }).where("id", "=", rplApp.id).execute();
    const { report } = await nat120(ct.unit);
    const problems = report.issues
      .filter((i) => i.file === "NAT00120" && i.field === "Outcome identifier - national")
      .map((i) => [i.key.split(" ").at(-1), i.problem.slice(0, 30)]);
    expect(problems).toEqual(
      expect.arrayContaining([
        [ct.unit, "A credit transfer (60) without"],
        [rpl.unit, "An RPL decision (51 or 52) wit"],
      ]),
    );
  });
});

describe("certificates", () => {
  it("no statement of attainment for a unit only credited from another RTO's document; an RPL grant gets one", async () => {
    const ct = await enrollmentIn();
    const ctApp = await apply(ct.enrollment.id, "credit_transfer");
    await authenticate(ctApp.id);
    await decide(ctApp.id, "granted");
    await expect(issueCertificate(t.db, { enrollmentId: ct.enrollment.id, actorId: admin.id })).rejects.toMatchObject({
      status: 409,
      message: RECOGNITION_MESSAGES.creditedNoCertificate,
    });
    const awaiting = (await awaitingEnrollments(t.db).select("enrollments.id").execute()).map((r) => r.id);
    expect(awaiting).not.toContain(ct.enrollment.id);
    const rpl = await enrollmentIn();
    const rplApp = await apply(rpl.enrollment.id, "rpl");
    await assignRecognitionAssessor(t.db, asAdmin(), rplApp.id, { assessor_id: assessor.id }, admin.id);
    await markAll(rplApp.id, rpl.course.id);
    await decide(rplApp.id, "granted", asAssessor());
    expect((await awaitingEnrollments(t.db).select("enrollments.id").execute()).map((r) => r.id)).toContain(rpl.enrollment.id);
    const issued = await issueCertificate(t.db, { enrollmentId: rpl.enrollment.id, actorId: admin.id });
    expect(issued.created).toBe(true);
  });
});

describe("the register's download", () => {
  it("holds every application past the page's limit, newest first, each viewer's own, read a batch at a time", async () => {
    const { course, enrollment } = await enrollmentIn({ studentId: other.id });
    const base = Date.parse("2026-02-02T00:00:00.000Z");
    // three at a time share an instant, so ties straddle the batches' edges
    const rows = Array.from({ length: RECOGNITION_LIST_LIMIT + 120 }, (_, i) => ({
      id: crypto.randomUUID(),
      enrollment_id: enrollment.id,
      student_id: other.id,
      course_id: course.id,
      kind: "credit_transfer" as const,
      status: "applied" as const,
      statement: `Bulk ${i}`,
      applied_by: other.id,
      applied_at: new Date(base + Math.floor(i / 3) * 60_000).toISOString(),
      applied_on: "2026-02-02",
    }));
    for (let i = 0; i < rows.length; i += 250)
      await t.db
        .insertInto("recognition_applications")
        .values(rows.slice(i, i + 250))
        .execute();
    const read = async (viewer: { id: string; role: "admin" | "trainer" | "student" }) => {
      const ids: string[] = [];
      for await (const r of recognitionRegisterRows(t.db, viewer, {})) ids.push(r.id);
      return ids;
    };
    const all = await read(asAdmin());
    const total = Number(
      (
        await t.db
          .selectFrom("recognition_applications")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(all).toHaveLength(total);
    expect(new Set(all).size).toBe(total);
    expect(all.slice(0, RECOGNITION_LIST_LIMIT)).toEqual((await listRecognitions(t.db, asAdmin(), {})).map((r) => r.id));
    const theirs = await read({ id: other.id, role: "student" });
    expect(theirs.length).toBeGreaterThanOrEqual(rows.length);
    expect((await read(asStudent())).some((id) => theirs.includes(id))).toBe(false);
  }, 60_000);
});
