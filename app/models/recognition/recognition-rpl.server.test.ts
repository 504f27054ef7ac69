import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recognitionApplyInput, recognitionDecideInput } from "~/schemas/recognition";
import { refereeReportInput, refereeRequestInput, RPL_STEP_MESSAGES, sessionBookInput, type SessionBookInput } from "~/schemas/recognition-rpl";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import { makeCourse, makeEnrollment, makeUser } from "../../../tests/support/factories";
import { createTestDb, type TestDb } from "../../../tests/support/test-db";
import { calendarFeed, makeCalendarFeed } from "../calendar.server";
import { applyForRecognition, assignRecognitionAssessor, decideRecognition } from "./recognition.server";
import { listRefereeRequests, refereeReportForToken, requestRefereeReport, submitRefereeReport } from "./recognition-referee.server";
import {
  bookRecognitionSession,
  cancelRecognitionSession,
  listRecognitionSessions,
  rescheduleRecognitionSession,
  upcomingRecognitionSessions,
} from "./recognition-session.server";

/** An RPL's third-party report by link and its competency sessions (issue 56), on SQLite and PostgreSQL. */

let t: TestDb;
let admin: { id: string };
let assessor: { id: string };
let otherTrainer: { id: string };
let student: { id: string };
let location: string;
const asAdmin = () => ({ id: admin.id, role: "admin" as const });
const asStudent = () => ({ id: student.id, role: "student" as const });
const asAssessor = () => ({ id: assessor.id, role: "trainer" as const });

beforeAll(async () => {
  t = await createTestDb();
  admin = await makeUser(t.db, { role: "admin" });
  assessor = await makeUser(t.db, { role: "trainer", full_name: "Assessor Two" });
  otherTrainer = await makeUser(t.db, { role: "trainer" });
  student = await makeUser(t.db, { role: "student", full_name: "Jordan Rigger" });
  location = crypto.randomUUID();
  const at = new Date().toISOString();
  await t.db
    .insertInto("delivery_locations")
    .values({
      id: location,
      identifier: "RPLYARD",
      name: "Training yard",
      suburb: "Wetherill Park",
      postcode: "2164",
      state: "NSW",
      country: "1101",
      created_at: at,
      updated_at: at,
    })
    .execute();
});
afterAll(() => t.cleanup());

let seq = 0;
/** An RPL waiting for its decision, with the credentialed assessor assigned (unless `assign` is false). */
async function rpl(options: { assign?: boolean } = {}) {
  const unit = `RPLS${String(++seq).padStart(4, "0")}`;
  const course = await makeCourse(t.db, { unit_code: unit, name: `Unit ${unit}` });
  const enrollment = await makeEnrollment(t.db, student.id, course.id);
  const app = await applyForRecognition(
    t.db,
    asStudent(),
    recognitionApplyInput.parse({ enrollment_id: enrollment.id, kind: "rpl", statement: "Six years dogging on high-rise sites" }),
    student.id,
  );
  if (options.assign !== false) await assignRecognitionAssessor(t.db, asAdmin(), app.id, { assessor_id: assessor.id }, admin.id);
  return { app, unit, course };
}

const report = refereeReportInput.parse({
  reporter_name: "Sam Foreman",
  reporter_role: "Site supervisor",
  reporter_organisation: "Acme Cranes",
  reporter_phone: "0412 345 678",
  known_how: "I supervised Jordan for three years",
  work_witnessed: "Slung and directed loads daily, including blind lifts",
  worked_from: "2021-02-01",
  worked_to: "2024-03-31",
  declaration: "on",
});

const audit = async (id: string) =>
  (await t.db.selectFrom("audit_log").select(["action", "detail"]).where("subject_id", "=", id).execute()).map((r) => r.action);

describe("third-party report by link", () => {
  it("staff ask by mail; the referee reports once; the assessor reads it and the learner sees only that it arrived", async () => {
    const { app } = await rpl();
    const { request, token } = await requestRefereeReport(
      t.db,
      asAssessor(),
      app.id,
      refereeRequestInput.parse({ referee_name: "Sam Foreman", referee_email: "Sam@Acme.example", relationship: "Supervisor" }),
      assessor.id,
    );
    expect(request).toMatchObject({ state: "waiting", referee_email: "sam@acme.example", report: null });
    // only the hash is kept, and the mail carries the link to an address without an account
    const row = await t.db.selectFrom("recognition_referee_requests").selectAll().where("id", "=", request.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(crypto.createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    const mail = await t.db.selectFrom("outbox_messages").selectAll().where("key", "=", `recognition-referee-request:${request.id}`).executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ template: "recognition-referee-request", recipient_id: null, recipient_email: "sam@acme.example" });
    expect(JSON.parse(mail.data as string).link).toBe(`/referee-report/${token}`);

    expect(await refereeReportForToken(t.db, token)).toMatchObject({ state: "open", learner: "Jordan Rigger", referee_name: "Sam Foreman" });
    await submitRefereeReport(t.db, token, report, { client: "127.0.9.1" });
    // a second submission changes nothing
    await expect(submitRefereeReport(t.db, token, { ...report, work_witnessed: "changed" }, { client: "127.0.9.1" })).rejects.toMatchObject({
      status: 409,
      message: RPL_STEP_MESSAGES.refereeUsed,
    });
    const [seen] = await listRefereeRequests(t.db, asAssessor(), app.id);
    expect(seen).toMatchObject({
      state: "received",
      report: {
        name: "Sam Foreman",
        organisation: "Acme Cranes",
        work_witnessed: "Slung and directed loads daily, including blind lifts",
        worked_from: "2021-02-01",
      },
    });
    const [learnerView] = await listRefereeRequests(t.db, asStudent(), app.id);
    expect(learnerView).toMatchObject({ state: "received", referee_name: "Sam Foreman", referee_email: null, report: null });
    expect(await audit(app.id)).toEqual(expect.arrayContaining(["recognition.referee_requested", "recognition.referee_reported"]));
  });

  it("unknown, expired and decided links are refused with nothing stored", async () => {
    await expect(submitRefereeReport(t.db, "x".repeat(43), report)).rejects.toMatchObject({ status: 404 });
    expect(await refereeReportForToken(t.db, "not-a-token")).toBeNull();
    const { app } = await rpl();
    const asked = new Date(Date.now() - 31 * 86_400_000);
    const old = await requestRefereeReport(
      t.db,
      asAdmin(),
      app.id,
      refereeRequestInput.parse({ referee_name: "Old", referee_email: "old@acme.example" }),
      admin.id,
      asked,
    );
    await expect(submitRefereeReport(t.db, old.token, report)).rejects.toMatchObject({ status: 410, message: RPL_STEP_MESSAGES.refereeExpired });
    expect((await listRefereeRequests(t.db, asAdmin(), app.id))[0]).toMatchObject({ state: "expired", submitted_at: null });
    const fresh = await requestRefereeReport(
      t.db,
      asAdmin(),
      app.id,
      refereeRequestInput.parse({ referee_name: "New", referee_email: "new@acme.example" }),
      admin.id,
    );
    await decideRecognition(t.db, asAdmin(), app.id, recognitionDecideInput.parse({ decision: "refused", reasons: "Wrong unit" }), admin.id);
    await expect(submitRefereeReport(t.db, fresh.token, report)).rejects.toMatchObject({ status: 410, message: RPL_STEP_MESSAGES.refereeClosed });
    const rows = await t.db.selectFrom("recognition_referee_requests").select("submitted_at").where("application_id", "=", app.id).execute();
    expect(rows.every((r) => r.submitted_at === null)).toBe(true);
    // and nobody asks on a decided application
    await expect(
      requestRefereeReport(t.db, asAdmin(), app.id, refereeRequestInput.parse({ referee_name: "Late", referee_email: "late@acme.example" }), admin.id),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("only the assessor or an admin asks; a learner's or another trainer's request is not found", async () => {
    const { app } = await rpl();
    const input = refereeRequestInput.parse({ referee_name: "Sam", referee_email: "sam@acme.example" });
    await expect(requestRefereeReport(t.db, asStudent(), app.id, input, student.id)).rejects.toMatchObject({ status: 404 });
    await expect(requestRefereeReport(t.db, { id: otherTrainer.id, role: "trainer" }, app.id, input, otherTrainer.id)).rejects.toMatchObject({ status: 404 });
  });

  it("the report's form refuses a missing declaration, a period ending before it starts or in the future", () => {
    const base = { ...report, declaration: "on" };
    expect(refereeReportInput.safeParse({ ...base, declaration: undefined }).error!.issues[0]).toMatchObject({
      path: ["declaration"],
      message: RPL_STEP_MESSAGES.declarationNeeded,
    });
    expect(refereeReportInput.safeParse({ ...base, worked_to: "2020-01-01" }).error!.issues[0]).toMatchObject({
      path: ["worked_to"],
      message: RPL_STEP_MESSAGES.workedToBeforeFrom,
    });
    expect(refereeReportInput.safeParse({ ...base, worked_to: addDays(organisationToday(), 2) }).error!.issues[0]).toMatchObject({
      path: ["worked_to"],
      message: RPL_STEP_MESSAGES.workedInFuture,
    });
    expect(refereeReportInput.safeParse({ ...base, reporter_phone: "" }).success).toBe(false);
  });
});

describe("competency sessions", () => {
  const day = addDays(organisationToday(), 14);
  const booking = (over: Partial<SessionBookInput> = {}) =>
    sessionBookInput.parse({
      kind: "conversation",
      session_date: day,
      starts_at: "09:00",
      duration_minutes: "60",
      location_id: location,
      notes: "Bring your logbook",
      ...over,
    });

  it("the assessor books one: the learner is mailed, sees it on the dashboard, and both calendar feeds carry it; reschedule and cancel follow", async () => {
    const { app, unit } = await rpl();
    const s = await bookRecognitionSession(t.db, asAssessor(), app.id, booking(), assessor.id);
    expect(s).toMatchObject({
      kind: "conversation",
      session_date: day,
      starts_at: "09:00",
      ends_at: "10:00",
      assessor: { id: assessor.id },
      cancelled_at: null,
    });
    expect(await listRecognitionSessions(t.db, asStudent(), app.id)).toHaveLength(1);
    expect((await upcomingRecognitionSessions(t.db, student.id)).map((u) => u.id)).toContain(s.id);
    const mails = await t.db
      .selectFrom("outbox_messages")
      .select(["template", "recipient_id", "data"])
      .where("key", "like", `recognition-session:${s.id}:%`)
      .execute();
    expect(mails).toEqual([expect.objectContaining({ template: "recognition-session", recipient_id: student.id })]);
    for (const who of [student.id, assessor.id]) {
      const { token } = await makeCalendarFeed(t.db, who, { replace: true });
      expect(await calendarFeed(t.db, token, "Test RTO")).toContain(`SUMMARY:${unit} RPL: competency conversation`);
    }
    const moved = await rescheduleRecognitionSession(
      t.db,
      asAdmin(),
      app.id,
      { session_id: s.id, session_date: day, starts_at: "13:30", duration_minutes: 90, location_id: location, notes: null },
      admin.id,
    );
    expect(moved).toMatchObject({ starts_at: "13:30", ends_at: "15:00" });
    await cancelRecognitionSession(t.db, asAssessor(), app.id, { session_id: s.id, cancel_reason: "Assessor unwell" }, assessor.id);
    expect((await listRecognitionSessions(t.db, asAdmin(), app.id))[0]).toMatchObject({ cancel_reason: "Assessor unwell" });
    expect((await upcomingRecognitionSessions(t.db, student.id)).map((u) => u.id)).not.toContain(s.id);
    await expect(cancelRecognitionSession(t.db, asAdmin(), app.id, { session_id: s.id, cancel_reason: "again" }, admin.id)).rejects.toMatchObject({
      status: 409,
    });
    expect(await audit(app.id)).toEqual(
      expect.arrayContaining(["recognition.session_booked", "recognition.session_rescheduled", "recognition.session_cancelled"]),
    );
    const sent = await t.db.selectFrom("outbox_messages").select("data").where("key", "like", `recognition-session:${s.id}:%`).execute();
    expect(sent.map((m) => JSON.parse(m.data as string).change).sort()).toEqual(["booked", "cancelled", "rescheduled"]);
  });

  it("refuses a double booking of the assessor (another RPL session or a class they teach), a past time and a session past midnight", async () => {
    const first = await rpl();
    const second = await rpl();
    await bookRecognitionSession(t.db, asAssessor(), first.app.id, booking({ starts_at: "09:00" }), assessor.id);
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom("recognition_sessions")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await expect(bookRecognitionSession(t.db, asAssessor(), second.app.id, booking({ starts_at: "09:30" }), assessor.id)).rejects.toMatchObject({
      status: 409,
      field: "starts_at",
    });
    // back to back is no clash
    await bookRecognitionSession(t.db, asAssessor(), second.app.id, booking({ starts_at: "10:00", kind: "practical" }), assessor.id);
    // a class the assessor teaches that day
    const at = new Date().toISOString();
    const classId = crypto.randomUUID();
    await t.db
      .insertInto("classes")
      .values({
        id: classId,
        course_id: first.course.id,
        start_date: day,
        end_date: day,
        location_id: null,
        trainer_id: assessor.id,
        seats: 4,
        cancelled_at: null,
        created_at: at,
        updated_at: at,
      } as never)
      .execute();
    await t.db
      .insertInto("class_sessions")
      .values({ id: crypto.randomUUID(), class_id: classId, session_date: day, starts_at: "12:00", ends_at: "16:00" })
      .execute();
    await expect(bookRecognitionSession(t.db, asAssessor(), second.app.id, booking({ starts_at: "15:00" }), assessor.id)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining(`the ${first.unit} class`),
    });
    await expect(
      bookRecognitionSession(t.db, asAssessor(), second.app.id, booking({ session_date: addDays(organisationToday(), -1) }), assessor.id),
    ).rejects.toMatchObject({ status: 422, fieldErrors: { session_date: RPL_STEP_MESSAGES.sessionPast } });
    await expect(
      bookRecognitionSession(t.db, asAssessor(), second.app.id, booking({ starts_at: "23:30", duration_minutes: 60 }), assessor.id),
    ).rejects.toMatchObject({ status: 422, fieldErrors: { duration_minutes: RPL_STEP_MESSAGES.sessionPastMidnight } });
    expect(await count()).toBe(before + 1);
  });

  it("refuses an application without an assessor, an assessor no longer credentialed on the day, and anyone else", async () => {
    const { app: bare } = await rpl({ assign: false });
    await expect(bookRecognitionSession(t.db, asAdmin(), bare.id, booking({ starts_at: "07:00" }), admin.id)).rejects.toMatchObject({
      status: 409,
      message: RPL_STEP_MESSAGES.noAssessor,
    });
    const { app, unit } = await rpl();
    await t.db
      .updateTable("trainer_units")
      .set({ expires_on: addDays(organisationToday(), 7) })
      .where("trainer_id", "=", assessor.id)
      .where("unit_code", "=", unit)
      .execute();
    await expect(bookRecognitionSession(t.db, asAdmin(), app.id, booking({ starts_at: "07:00" }), admin.id)).rejects.toMatchObject({
      status: 409,
      field: "session_date",
    });
    await expect(bookRecognitionSession(t.db, asStudent(), app.id, booking({ starts_at: "07:00" }), student.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      bookRecognitionSession(t.db, { id: otherTrainer.id, role: "trainer" }, app.id, booking({ starts_at: "07:00" }), otherTrainer.id),
    ).rejects.toMatchObject({ status: 404 });
  });
});
