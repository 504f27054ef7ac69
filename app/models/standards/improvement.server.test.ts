import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction } from "#db/connection";
import type { ImprovementSource } from "#db/schema-improvement";
import { appealInput, complaintInput } from "~/schemas/complaint";
import { lodgeAppeal, lodgeComplaint } from "../complaints/complaint-lodging.server";
import { makeCourse, makeDecidedAssessment, makeEnrollment, makeUser } from "../../../tests/support/factories";
import { createTestDb, type TestDb } from "../../../tests/support/test-db";
import {
  IMPROVEMENT_CLOSE_NEEDS_EVIDENCE,
  IMPROVEMENT_CLOSED_LOCKED,
  QUESTIONNAIRE_ALREADY_ANSWERED,
  QUESTIONNAIRE_EXPIRED,
  QUESTIONNAIRE_LINK_DAYS,
} from "~/schemas/improvement-text";
import { updateEnrollmentProgress } from "../enrollment.server";
import {
  closeImprovementAction,
  createImprovementAction,
  getImprovementAction,
  listImprovementActions,
  OWNER_NOT_STAFF,
  SOURCE_REFERENCE_NEEDED,
  UNKNOWN_SOURCE,
  overdueImprovementCount,
  overdueImprovements,
  updateImprovementAction,
} from "./improvement.server";
import {
  addQuestion,
  annualSummaryRows,
  EMPLOYER_WITHOUT_ACCOUNT,
  inviteEmployerToQuestionnaire,
  inviteLearnerAfterCompletion,
  questionnaireForToken,
  questionnaireSummary,
  setLowAverageThreshold,
  submitQuestionnaire,
  updateQuestion,
} from "./questionnaire.server";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => t.cleanup());

const today = "2026-11-28";
const action = (owner: string, due: string, extra: Partial<{ source_type: ImprovementSource; source_id: string | null }> = {}) => ({
  source_type: extra.source_type ?? ("audit" as const),
  source_id: extra.source_id ?? null,
  description: `Improve something due ${due}`,
  owner_id: owner,
  due_date: due,
});

describe("the improvement register", () => {
  it("closes an action only with what was done and its evidence, and a closed action stands", async () => {
    const admin = await makeUser(t.db, { role: "admin" });
    const raised = await createImprovementAction(t.db, action(admin.id, "2026-12-10"), admin.id);
    expect(raised).toMatchObject({ status: "open", closed_at: null, owner: { id: admin.id } });

    await expect(closeImprovementAction(t.db, raised.id, { action_taken: null, closure_evidence: null }, admin.id)).rejects.toMatchObject({
      status: 422,
      message: IMPROVEMENT_CLOSE_NEEDS_EVIDENCE,
      fieldErrors: { action_taken: expect.any(String), closure_evidence: expect.any(String) },
    });
    await expect(
      closeImprovementAction(t.db, raised.id, { action_taken: "Rewrote the pre-start briefing", closure_evidence: "   " }, admin.id),
    ).rejects.toMatchObject({
      status: 422,
      fieldErrors: { closure_evidence: expect.any(String) },
    });
    expect((await getImprovementAction(t.db, raised.id))?.status).toBe("open");

    const closed = await closeImprovementAction(
      t.db,
      raised.id,
      { action_taken: "Rewrote the pre-start briefing", closure_evidence: "Briefing v3 in the QA folder, trainers signed 20 Nov" },
      admin.id,
    );
    expect(closed).toMatchObject({ status: "closed", closure_evidence: "Briefing v3 in the QA folder, trainers signed 20 Nov", closed_by: { id: admin.id } });
    await expect(closeImprovementAction(t.db, raised.id, { action_taken: "x", closure_evidence: "y" }, admin.id)).rejects.toMatchObject({
      status: 409,
      message: IMPROVEMENT_CLOSED_LOCKED,
    });
    await expect(
      updateImprovementAction(t.db, raised.id, { description: "x", owner_id: admin.id, due_date: "2026-12-10", status: "open", action_taken: null }, admin.id),
    ).rejects.toMatchObject({ status: 409 });

    const audit = await t.db.selectFrom("audit_log").select(["action", "fields"]).where("subject_id", "=", raised.id).orderBy("id").execute();
    expect(audit.map((a) => a.action)).toEqual(["improvement.raised", "improvement.closed"]);
  });

  it("refuses an owner who is not active staff", async () => {
    const admin = await makeUser(t.db, { role: "admin" });
    const student = await makeUser(t.db, { role: "student" });
    await expect(createImprovementAction(t.db, action(student.id, "2026-12-10"), admin.id)).rejects.toMatchObject({
      status: 422,
      message: OWNER_NOT_STAFF,
      fieldErrors: { owner_id: OWNER_NOT_STAFF },
    });
  });

  it("lists overdue actions first, oldest due first, then open ones by due day, then closed ones", async () => {
    const owner = await makeUser(t.db, { role: "trainer", full_name: "Owner Of Order" });
    const admin = await makeUser(t.db, { role: "admin" });
    const later = await createImprovementAction(t.db, action(owner.id, "2026-12-20"), admin.id);
    const soon = await createImprovementAction(t.db, action(owner.id, "2026-12-01"), admin.id);
    const overdueRecent = await createImprovementAction(t.db, action(owner.id, "2026-11-27"), admin.id);
    const overdueOld = await createImprovementAction(t.db, action(owner.id, "2026-10-01"), admin.id);
    const closedOverdue = await createImprovementAction(t.db, action(owner.id, "2026-09-01"), admin.id);
    await closeImprovementAction(t.db, closedOverdue.id, { action_taken: "Done", closure_evidence: "Minutes of 1 Sep" }, admin.id);
    const dueToday = await createImprovementAction(t.db, action(owner.id, today), admin.id);

    const { actions, total } = await listImprovementActions(t.db, { owner: owner.id }, { today });
    expect(total).toBe(6);
    expect(actions.map((a) => a.id)).toEqual([overdueOld.id, overdueRecent.id, dueToday.id, soon.id, later.id, closedOverdue.id]);
    expect(actions.map((a) => a.overdue)).toEqual([true, true, false, false, false, false]);
    const onlyOverdue = await listImprovementActions(t.db, { owner: owner.id, overdue: "1" }, { today });
    expect(onlyOverdue.actions.map((a) => a.id)).toEqual([overdueOld.id, overdueRecent.id]);

    const before = await overdueImprovementCount(t.db, today);
    expect(before).toBeGreaterThanOrEqual(2);
    expect((await overdueImprovements(t.db, { today, limit: 100 })).map((a) => a.id)).toEqual(expect.arrayContaining([overdueOld.id, overdueRecent.id]));
    await closeImprovementAction(t.db, overdueOld.id, { action_taken: "Done", closure_evidence: "Record" }, admin.id);
    expect(await overdueImprovementCount(t.db, today)).toBe(before - 1);
  });
});

async function completedEnrollment(name: string) {
  const trainer = await makeUser(t.db, { role: "trainer" });
  const student = await makeUser(t.db, { role: "student", full_name: name });
  const course = await makeCourse(t.db, { name: `Course of ${name}` });
  const enrollment = await makeEnrollment(t.db, student.id, course.id, { status: "in_progress", progress: 80 });
  await t.db
    .insertInto("assessments")
    .values({
      id: crypto.randomUUID(),
      enrollment_id: enrollment.id,
      student_id: student.id,
      course_id: course.id,
      assessment_type: "Practical",
      status: "passed",
      score: 90,
      max_score: 100,
      assessment_date: new Date().toISOString(),
      feedback: null,
      assessed_by: trainer.id,
      created_at: new Date().toISOString(),
    })
    .execute();
  return { trainer, student, enrollment };
}

describe("the questionnaires", () => {
  it("invite a learner once per completion, through the outbox, with a link that answers once", async () => {
    const admin = await makeUser(t.db, { role: "admin" });
    const rating = await addQuestion(t.db, { audience: "learner", kind: "rating", prompt: "The trainer explained the load chart clearly" }, admin.id);
    const text = await addQuestion(t.db, { audience: "learner", kind: "text", prompt: "What would you change?" }, admin.id);
    const { trainer, student, enrollment } = await completedEnrollment("Quinn Answerer");

    await updateEnrollmentProgress(t.db, { enrollmentId: enrollment.id, progress: 100, status: "completed", actorId: trainer.id });
    await updateEnrollmentProgress(t.db, { enrollmentId: enrollment.id, progress: 100, status: "completed", actorId: trainer.id });
    const again = await writeTransaction(t.db, (trx) => inviteLearnerAfterCompletion(trx, { enrollmentId: enrollment.id, studentId: student.id, course: "x" }));
    expect(again).toBeNull();
    const invitations = await t.db.selectFrom("questionnaire_invitations").selectAll().where("cause_key", "=", `completion:${enrollment.id}`).execute();
    expect(invitations).toHaveLength(1);
    const mails = await t.db
      .selectFrom("outbox_messages")
      .select(["key", "data", "recipient_id"])
      .where("template", "=", "questionnaire-invitation")
      .where("recipient_id", "=", student.id)
      .execute();
    expect(mails).toHaveLength(1);
    const path = (JSON.parse(mails[0]!.data) as { path: string }).path;
    const token = path.replace("/questionnaire/", "");
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(invitations[0]!.token_hash).not.toContain(token);

    const form = await questionnaireForToken(t.db, token);
    expect(form?.used).toBe(false);
    expect(form?.questions.map((q) => q.id)).toEqual(expect.arrayContaining([rating.id, text.id]));
    await expect(submitQuestionnaire(t.db, token, { [`q_${rating.id}`]: "9" })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { [`q_${rating.id}`]: expect.any(String) },
    });
    const answers: Record<string, string> = { [`q_${text.id}`]: "More time on the crane" };
    for (const q of form!.questions) if (q.kind === "rating") answers[`q_${q.id}`] = "2";
    await submitQuestionnaire(t.db, token, answers);
    await expect(submitQuestionnaire(t.db, token, answers)).rejects.toMatchObject({ status: 409, message: QUESTIONNAIRE_ALREADY_ANSWERED });
    await expect(submitQuestionnaire(t.db, "not-a-token-at-all-nope-nope", answers)).rejects.toMatchObject({ status: 404 });
    expect((await questionnaireForToken(t.db, token))?.used).toBe(true);
    const stored = await t.db.selectFrom("questionnaire_answers").select("response_id").where("question_id", "=", rating.id).execute();
    expect(stored).toHaveLength(1);
  });

  it(`a link works for ${QUESTIONNAIRE_LINK_DAYS} days after its invitation, then is refused with 410 and records nothing`, async () => {
    const admin = await makeUser(t.db, { role: "admin" });
    const question = await addQuestion(t.db, { audience: "learner", kind: "rating", prompt: "The trainer knew the crane" }, admin.id);
    const learner = await makeUser(t.db);
    const invited = new Date("2026-09-01T00:00:00Z");
    const token = (await writeTransaction(t.db, (trx) =>
      inviteLearnerAfterCompletion(trx, { enrollmentId: crypto.randomUUID(), studentId: learner.id, course: "Dogging", now: invited }),
    ))!;
    const day = 86_400_000;
    const lastMoment = new Date(invited.getTime() + QUESTIONNAIRE_LINK_DAYS * day - 1);
    const expiry = new Date(invited.getTime() + QUESTIONNAIRE_LINK_DAYS * day);
    expect((await questionnaireForToken(t.db, token, lastMoment))?.expired).toBe(false);
    expect((await questionnaireForToken(t.db, token, expiry))?.expired).toBe(true);
    const count = async () => (await t.db.selectFrom("questionnaire_answers").select("response_id").where("question_id", "=", question.id).execute()).length;
    const answers = Object.fromEntries(
      (await questionnaireForToken(t.db, token, lastMoment))!.questions.filter((q) => q.kind === "rating").map((q) => [`q_${q.id}`, "4"]),
    );
    await expect(submitQuestionnaire(t.db, token, answers, { now: expiry })).rejects.toMatchObject({ status: 410, message: QUESTIONNAIRE_EXPIRED });
    expect(await count()).toBe(0);
    expect((await questionnaireForToken(t.db, token, expiry))?.used).toBe(false);
    await submitQuestionnaire(t.db, token, answers, { now: lastMoment });
    expect(await count()).toBe(1);
  });

  it("keep answers anonymous: no row of a response and no report holds who gave it", async () => {
    const admin = await makeUser(t.db, { role: "admin" });
    const { trainer, student, enrollment } = await completedEnrollment("Avery Anonymous");
    await updateEnrollmentProgress(t.db, { enrollmentId: enrollment.id, progress: 100, status: "completed", actorId: trainer.id });
    const mail = await t.db
      .selectFrom("outbox_messages")
      .select("data")
      .where("key", "=", `questionnaire-invitation:completion:${enrollment.id}`)
      .executeTakeFirstOrThrow();
    const token = (JSON.parse(mail.data) as { path: string }).path.split("/").pop()!;
    const form = (await questionnaireForToken(t.db, token))!;
    const answers = Object.fromEntries(form.questions.map((q) => [`q_${q.id}`, q.kind === "rating" ? "5" : "Avery liked it"]));
    await submitQuestionnaire(t.db, token, answers);

    const responseColumns = Object.keys((await t.db.selectFrom("questionnaire_responses").selectAll().limit(1).executeTakeFirstOrThrow()) as object);
    expect(responseColumns.sort()).toEqual(["audience", "id", "submitted_on"]);
    const answerColumns = Object.keys((await t.db.selectFrom("questionnaire_answers").selectAll().limit(1).executeTakeFirstOrThrow()) as object);
    expect(answerColumns.sort()).toEqual(["question_id", "rating", "response_id", "text"]);
    const invitation = await t.db
      .selectFrom("questionnaire_invitations")
      .selectAll()
      .where("cause_key", "=", `completion:${enrollment.id}`)
      .executeTakeFirstOrThrow();
    expect(Object.keys(invitation).sort()).toEqual(["audience", "cause_key", "created_at", "id", "recipient_id", "token_hash", "used"]);

    const report = JSON.stringify(await questionnaireSummary(t.db, { audience: "learner" }));
    for (const secret of [student.id, student.email, "Avery Anonymous", enrollment.id, invitation.id, token]) expect(report).not.toContain(secret);
    expect(report).toContain("Avery liked it"); // the words written, which the learner chose to give
    const year = Number(new Date().toISOString().slice(0, 4));
    const annual = JSON.stringify(await annualSummaryRows(t.db, { audience: "learner", year }));
    for (const secret of [student.id, student.email, "Avery Anonymous", enrollment.id]) expect(annual).not.toContain(secret);
    void admin;
  });

  it("report averages and counts per question, flag low scores, and let an action be raised from one", async () => {
    const admin = await makeUser(t.db, { role: "admin" });
    const q = await addQuestion(t.db, { audience: "employer", kind: "rating", prompt: "Our workers were ready for site" }, admin.id);
    const contact = await makeUser(t.db, { role: "trainer", email: "contact@builder.example" });
    await expect(
      writeTransaction(t.db, (trx) => inviteEmployerToQuestionnaire(trx, { email: "nobody@builder.example", causeKey: "booking-1" })),
    ).rejects.toMatchObject({ status: 422, message: EMPLOYER_WITHOUT_ACCOUNT });
    const tokens: string[] = [];
    for (const cause of ["booking-1", "booking-2", "booking-3", "booking-1"]) {
      const token = await writeTransaction(t.db, (trx) =>
        inviteEmployerToQuestionnaire(trx, { email: "Contact@Builder.example", causeKey: cause, subject: "the dogging course" }),
      );
      if (token) tokens.push(token);
    }
    expect(tokens).toHaveLength(3);
    expect(await t.db.selectFrom("outbox_messages").select("id").where("recipient_id", "=", contact.id).execute()).toHaveLength(3);
    const day = "2026-11-20";
    for (const [i, rating] of ["4", "4", "5"].entries())
      await submitQuestionnaire(t.db, tokens[i]!, { [`q_${q.id}`]: rating }, { now: new Date(`${day}T01:00:00Z`) });

    let summary = await questionnaireSummary(t.db, { audience: "employer", from: "2026-11-01", to: "2026-11-30" });
    let row = summary.questions.find((s) => s.id === q.id)!;
    expect(summary.responses).toBe(3);
    expect(row).toMatchObject({ count: 3, average: 4.33, ratings: [0, 0, 0, 2, 1], low: 0, flagged: false });
    await setLowAverageThreshold(t.db, { audience: "employer", low_average: 4.5 }, admin.id);
    summary = await questionnaireSummary(t.db, { audience: "employer", from: "2026-11-01", to: "2026-11-30" });
    row = summary.questions.find((s) => s.id === q.id)!;
    expect(summary.threshold).toBe(4.5);
    expect(row.flagged).toBe(true);
    // outside the period: nothing
    const december = await questionnaireSummary(t.db, { audience: "employer", from: "2026-12-01", to: "2026-12-31" });
    expect(december.questions.find((s) => s.id === q.id)?.count ?? 0).toBe(0);

    const raised = await createImprovementAction(t.db, action(admin.id, "2027-01-31", { source_type: "questionnaire", source_id: q.id }), admin.id);
    expect(raised.source_label).toBe("Employer questionnaire: \u201cOur workers were ready for site\u201d");
    await expect(
      createImprovementAction(t.db, action(admin.id, "2027-01-31", { source_type: "questionnaire", source_id: crypto.randomUUID() }), admin.id),
    ).rejects.toMatchObject({ status: 422 });

    const annual = await annualSummaryRows(t.db, { audience: "employer", year: 2026 });
    expect(annual.find((r) => r.question === "Our workers were ready for site")).toMatchObject({
      year: 2026,
      answers: 3,
      average: "4.33",
      rating_4: 2,
      rating_5: 1,
      low_ratings: 0,
      below_threshold: "yes",
    });

    await updateQuestion(t.db, q.id, { prompt: q.prompt, retired: true }, admin.id);
    const asked = await questionnaireForToken(
      t.db,
      (await writeTransaction(t.db, (trx) => inviteEmployerToQuestionnaire(trx, { email: contact.email, causeKey: "booking-9" }))) ??
        "none-none-none-none-none",
    );
    expect(asked?.questions.some((x) => x.id === q.id) ?? false).toBe(false);
  });
});

describe("an action's source", () => {
  const rto = { name: "Test RTO", code: "12345" };
  const stored = async () =>
    Number(
      (
        await t.db
          .selectFrom("improvement_actions")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("of a kind of record must name one of that kind: refused at source_id otherwise, nothing stored", async () => {
    const admin = await makeUser(t.db, { role: "admin" });
    const student = await makeUser(t.db, { role: "student" });
    const assessor = await makeUser(t.db, { role: "trainer" });
    const complaint = await lodgeComplaint(t.db, complaintInput.parse({ details: "The yard was closed without notice" }), { rto });
    const assessmentId = await makeDecidedAssessment(t.db, student.id, assessor.id, "failed");
    const appeal = await lodgeAppeal(t.db, appealInput.parse({ assessment_kind: "unit", assessment_id: assessmentId, details: "I passed the lift" }), {
      by: student.id,
      rto,
    });
    const course = await makeCourse(t.db);
    const planId = crypto.randomUUID();
    await t.db
      .insertInto("validation_plans")
      .values({ id: planId, course_id: course.id, planned_on: today, sample_size: 2, created_by: admin.id, created_at: new Date().toISOString() })
      .execute();

    const before = await stored();
    const refused = async (source_type: ImprovementSource, source_id: string | null, message: string) =>
      expect(createImprovementAction(t.db, action(admin.id, "2027-01-31", { source_type, source_id }), admin.id)).rejects.toMatchObject({
        status: 422,
        fieldErrors: { source_id: message },
      });
    await refused("complaint", "nonexistent-id", UNKNOWN_SOURCE.complaint);
    await refused("complaint", crypto.randomUUID(), UNKNOWN_SOURCE.complaint);
    // a record of another kind is not one of this kind
    await refused("complaint", appeal.id, UNKNOWN_SOURCE.complaint);
    await refused("appeal", complaint.reference, UNKNOWN_SOURCE.appeal);
    await refused("validation", "nonexistent-id", UNKNOWN_SOURCE.validation);
    await refused("validation", crypto.randomUUID(), UNKNOWN_SOURCE.validation);
    await refused("questionnaire", "nonexistent-id", UNKNOWN_SOURCE.questionnaire);
    await refused("complaint", null, SOURCE_REFERENCE_NEEDED);
    expect(await stored()).toBe(before);

    // by id or by reference, labelled with the reference
    const byId = await createImprovementAction(t.db, action(admin.id, "2027-01-31", { source_type: "complaint", source_id: complaint.id }), admin.id);
    expect(byId).toMatchObject({ source_id: complaint.id, source_label: `Complaint ${complaint.reference}` });
    const byReference = await createImprovementAction(
      t.db,
      action(admin.id, "2027-01-31", { source_type: "appeal", source_id: appeal.reference.toLowerCase() }),
      admin.id,
    );
    expect(byReference).toMatchObject({ source_label: `Appeal ${appeal.reference}` });
    const fromValidation = await createImprovementAction(t.db, action(admin.id, "2027-01-31", { source_type: "validation", source_id: planId }), admin.id);
    expect(fromValidation).toMatchObject({ source_type: "validation", source_id: planId });
    // an audit or anything else names what it names, or nothing
    const fromAudit = await createImprovementAction(t.db, action(admin.id, "2027-01-31", { source_type: "audit", source_id: "External audit 2026" }), admin.id);
    expect(fromAudit).toMatchObject({ source_id: "External audit 2026", source_label: null });
    await createImprovementAction(t.db, action(admin.id, "2027-01-31", { source_type: "other", source_id: null }), admin.id);
    expect(await stored()).toBe(before + 5);
  });
});
