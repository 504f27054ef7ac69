import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ical from "node-ical";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, writeTransaction, type DB } from "#db/connection";
import { createTestDb, TEST_DIALECT } from "../../tests/support/test-db";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { parseEml } from "../../tests/support/eml";
import { deliverDueMail } from "~/jobs/deliver-mail.server";
import { createMailer, type MailMessage, type Mailer } from "~/mail/transport.server";
import { WHAT_TO_BRING, CLASS_FULL, FEED_EXISTS, NO_OFFER, SESSION_NOT_STARTED, classSavedMessage } from "~/schemas/class-text";
import { classFormSchema, sessionFieldId } from "~/schemas/class";
import { classCancelledEmail } from "~/mail/class-mails.server";
import { renderMail } from "~/mail/templates.server";
import { queueEnrollmentConfirmation } from "./enrollment-confirmation.server";
import { formatDateTime } from "~/utils/format";
import { parseWith } from "~/utils/validation";
import { createEnrollment, enrollmentState, updateEnrollmentProgress } from "./enrollment.server";
import { cancelClass, classPeople, createClass, updateClass } from "./class.server";
import { acceptOffer, joinWaitlist, waitlistEntry } from "./waitlist.server";
import { runClassJobs } from "./class-jobs.server";
import { countUnreadNotifications, listNotifications, markNotificationsRead } from "./notification.server";
import { attendanceForStudent, getRoster, listAttendanceAlerts, listTrainerClasses, markAttendance } from "./attendance.server";
import { calendarFeed, makeCalendarFeed } from "./calendar.server";
import { nextSessionForStudent } from "./student-enrollments.server";

const OUTBOX = fs.mkdtempSync(path.join(os.tmpdir(), "class-outbox-"));
process.env.OUTBOX_DIR = OUTBOX;

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
let trainer: { id: string; role: "trainer" };
const NOW = new Date("2026-11-20T00:00:00Z");
const HOUR = 3600_000;

function collector(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { kind: "outbox", sent, send: async (m) => (sent.push(m), { messageId: String(sent.length) }) };
}
const renderCtx = { origin: "http://localhost:3000", rto: { name: "Summit", code: "90001" } };

/** One run of the class jobs as the runner makes it at `now`, then the outbox delivered through `mailer`. */
async function runJobs(on: DB, mailer: Mailer, now: Date) {
  await runClassJobs(on, { now });
  await deliverDueMail(on, { mailer, worker: `test-${Math.random()}`, now: () => now, ctx: renderCtx });
}

beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
  trainer = { id: (await makeUser(db, { role: "trainer" })).id, role: "trainer" };
});
afterAll(async () => {
  await cleanup();
  fs.rmSync(OUTBOX, { recursive: true, force: true });
});

async function oneSeatClass(seats = 1, start = "2026-12-07", sessions = [{ date: start, starts_at: "07:30", ends_at: "15:30" }]) {
  const course = await makeCourse(db);
  const cls = await createClass(
    db,
    course.id,
    { start_date: start, end_date: sessions.at(-1)!.date, sessions, trainer_id: trainer.id, seats },
    trainer.id,
    NOW,
  );
  return { course, cls };
}

describe("the waitlist", () => {
  it("offers a freed seat to the first waiting for 48 hours, mails once, and accepting takes it", async () => {
    const { course, cls } = await oneSeatClass();
    const [holder, first, second] = await Promise.all([makeUser(db), makeUser(db), makeUser(db)]);
    const held = await createEnrollment(db, { studentId: holder.id, courseId: course.id, classId: cls.id, now: NOW });
    await joinWaitlist(db, { classId: cls.id, studentId: first.id, now: NOW });
    await joinWaitlist(db, { classId: cls.id, studentId: second.id, now: new Date(NOW.getTime() + 1000) });
    expect((await waitlistEntry(db, cls.id, first.id, NOW))?.place).toBe(1);
    expect((await waitlistEntry(db, cls.id, second.id, NOW))?.place).toBe(2);

    await updateEnrollmentProgress(db, { enrollmentId: held.id, progress: 0, status: "withdrawn", actorId: trainer.id, now: NOW });
    expect(await waitlistEntry(db, cls.id, first.id, NOW)).toMatchObject({ status: "offered", place: null });
    // the offered seat is kept: the second in line cannot take it
    await expect(createEnrollment(db, { studentId: second.id, courseId: course.id, classId: cls.id, now: NOW })).rejects.toThrow(CLASS_FULL);

    const mailer = collector();
    await runJobs(db, mailer, NOW);
    await runJobs(db, mailer, NOW);
    const offers = mailer.sent.filter((m) => m.subject.startsWith("A seat is free"));
    expect(offers).toHaveLength(1);
    expect(offers[0]!.text).toContain(`/enroll/${course.id}`);

    await acceptOffer(db, { classId: cls.id, studentId: first.id, now: new Date(NOW.getTime() + HOUR) });
    const rows = await db.selectFrom("enrollments").select("student_id").where("class_id", "=", cls.id).where("status", "<>", "withdrawn").execute();
    expect(rows.map((r) => r.student_id)).toEqual([first.id]);
    expect((await waitlistEntry(db, cls.id, second.id, NOW))?.place).toBe(1);

    // enrolling and taking the waitlist's seat each queued a confirmation with the enrolment: sessions, place, what to bring, the invoice, the calendar
    const confirmations = await db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("template", "=", "enrolment-confirmed")
      .where("recipient_id", "in", [holder.id, first.id])
      .execute();
    expect(confirmations.map((c) => c.recipient_id).sort()).toEqual([holder.id, first.id].sort());
    const { name, unit_code } = await db.selectFrom("courses").select(["name", "unit_code"]).where("id", "=", course.id).executeTakeFirstOrThrow();
    for (const c of confirmations) {
      const mail = renderMail(
        { ...c, template: "enrolment-confirmed", data: JSON.parse(c.data) as Record<string, unknown> },
        { email: "x@example.com", full_name: "Mallory Typed-Name" },
        { origin: "https://portal.example", rto: { name: "RTO", code: "1" } },
      );
      expect(mail.subject).toBe(`Enrolment confirmed: ${name}, 7 Dec 2026`);
      expect(mail.text).toContain("Hello there,");
      expect(mail.text).not.toContain("Mallory");
      expect(mail.text).toContain(`You are enrolled in ${unit_code} ${name}.`);
      expect(mail.text).toContain("- 7 Dec 2026, 7:30 am – 3:30 pm");
      expect(mail.text).toMatch(/Where: \S/);
      expect(mail.text).toContain(`What to bring: ${WHAT_TO_BRING}.`);
      expect(mail.text).toMatch(/Tax invoice \S+: \$[\d,.]+, paid\./);
      expect(mail.text).toContain("https://portal.example/student/invoices");
      expect(mail.text).toContain("https://portal.example/student/calendar");
    }
    // one per enrolment and class: the same cause queues nothing twice
    await writeTransaction(db, (trx) => queueEnrollmentConfirmation(trx, { enrollmentId: held.id, now: NOW }));
    expect(
      await db.selectFrom("outbox_messages").select("id").where("template", "=", "enrolment-confirmed").where("recipient_id", "=", holder.id).execute(),
    ).toHaveLength(1);
  });

  it("an expired offer passes to the next, who is mailed", async () => {
    const { course, cls } = await oneSeatClass();
    const [holder, first, second] = await Promise.all([makeUser(db), makeUser(db), makeUser(db)]);
    const held = await createEnrollment(db, { studentId: holder.id, courseId: course.id, classId: cls.id, now: NOW });
    await joinWaitlist(db, { classId: cls.id, studentId: first.id, now: NOW });
    await joinWaitlist(db, { classId: cls.id, studentId: second.id, now: NOW });
    await updateEnrollmentProgress(db, { enrollmentId: held.id, progress: 0, status: "withdrawn", actorId: trainer.id, now: NOW });

    const later = new Date(NOW.getTime() + 49 * HOUR);
    const mailer = collector();
    await runJobs(db, mailer, later);
    expect(await waitlistEntry(db, cls.id, first.id, later)).toBeNull();
    expect(await waitlistEntry(db, cls.id, second.id, later)).toMatchObject({ status: "offered" });
    expect(mailer.sent.map((m) => m.to)).toContain((await db.selectFrom("users").select("email").where("id", "=", second.id).executeTakeFirstOrThrow()).email);
    await expect(acceptOffer(db, { classId: cls.id, studentId: first.id, now: later })).rejects.toThrow(NO_OFFER);
    // a class that does not exist is not found, as any unknown id is
    await expect(acceptOffer(db, { classId: crypto.randomUUID(), studentId: first.id, now: later })).rejects.toMatchObject({ status: 404 });
    await acceptOffer(db, { classId: cls.id, studentId: second.id, now: later });
  });

  it("passes over a waiting learner who has since enrolled in another class of the course", async () => {
    const { course, cls } = await oneSeatClass();
    const other = await createClass(
      db,
      course.id,
      {
        start_date: "2026-12-20",
        end_date: "2026-12-20",
        sessions: [{ date: "2026-12-20", starts_at: "07:30", ends_at: "15:30" }],
        trainer_id: trainer.id,
        seats: 3,
      },
      trainer.id,
      NOW,
    );
    const [holder, first, second] = await Promise.all([makeUser(db), makeUser(db), makeUser(db)]);
    const held = await createEnrollment(db, { studentId: holder.id, courseId: course.id, classId: cls.id, now: NOW });
    await joinWaitlist(db, { classId: cls.id, studentId: first.id, now: NOW });
    await joinWaitlist(db, { classId: cls.id, studentId: second.id, now: NOW });
    await createEnrollment(db, { studentId: first.id, courseId: course.id, classId: other.id, now: NOW });
    await updateEnrollmentProgress(db, { enrollmentId: held.id, progress: 0, status: "withdrawn", actorId: trainer.id, now: NOW });
    expect(await waitlistEntry(db, cls.id, first.id, NOW)).toBeNull();
    expect(await waitlistEntry(db, cls.id, second.id, NOW)).toMatchObject({ status: "offered" });
  });

  it("more seats on the class go to the waitlist too", async () => {
    const { course, cls } = await oneSeatClass();
    const [holder, first] = await Promise.all([makeUser(db), makeUser(db)]);
    await createEnrollment(db, { studentId: holder.id, courseId: course.id, classId: cls.id, now: NOW });
    await joinWaitlist(db, { classId: cls.id, studentId: first.id, now: NOW });
    await updateClass(db, cls.id, { seats: 2 }, trainer.id, NOW);
    expect(await waitlistEntry(db, cls.id, first.id, NOW)).toMatchObject({ status: "offered" });
  });
});

describe("cancelling a class", () => {
  it("mails every enrolled learner and everyone waiting", async () => {
    const { course, cls } = await oneSeatClass();
    const [a, w] = await Promise.all([makeUser(db, { full_name: "Ana Enrolled" }), makeUser(db, { full_name: "Wes Waiting" })]);
    await createEnrollment(db, { studentId: a.id, courseId: course.id, classId: cls.id, now: NOW });
    await joinWaitlist(db, { classId: cls.id, studentId: w.id, now: NOW });
    const cancelled = await cancelClass(db, cls.id, trainer.id, NOW);
    expect(cancelled.learners).toHaveLength(2);
    // queued with the cancellation; the runner delivers them (here to .eml files)
    const queued = await db.selectFrom("outbox_messages").select("id").where("key", "like", `class-cancelled:${cls.id}:%`).execute();
    expect(queued).toHaveLength(2);
    await deliverDueMail(db, {
      mailer: createMailer({ RTO_NAME: "Summit", outboxDir: OUTBOX }),
      worker: "test-cancel",
      ctx: renderCtx,
      ids: queued.map((q) => q.id),
    });
    const files = fs.readdirSync(OUTBOX).filter((f) => f.endsWith(".eml"));
    const mails = files.map((f) => parseEml(fs.readFileSync(path.join(OUTBOX, f), "utf8")));
    expect(mails.map((m) => m.text?.split("\n")[0]).sort()).toEqual(["Hello Ana,", "Hello Wes,"].sort());
    for (const m of mails) expect(m.headers.subject).toMatch(/^Class cancelled/);
    for (const m of mails) expect(m.text).toContain(`http://localhost:3000/enroll/${course.id}`);
  });
});

describe("attendance", () => {
  it("the trainer marks a roster; two absences in a row raise one alert, mailed once; the learner's card counts", async () => {
    const sessions = [
      { date: "2026-11-30", starts_at: "07:30", ends_at: "15:30" },
      { date: "2026-12-01", starts_at: "07:30", ends_at: "15:30" },
      { date: "2026-12-02", starts_at: "07:30", ends_at: "12:00" },
    ];
    const { course, cls } = await oneSeatClass(3, "2026-11-30", sessions);
    const s = await makeUser(db);
    const e = await createEnrollment(db, { studentId: s.id, courseId: course.id, classId: cls.id, now: NOW });
    const other = { id: (await makeUser(db, { role: "trainer" })).id, role: "trainer" as const };
    expect(await getRoster(db, cls.id, other)).toBeNull();
    const roster = (await getRoster(db, cls.id, trainer))!;
    const [s1, s2, s3] = roster.sessions;
    // the class's last day, Sydney time: every session has begun
    const lastDay = new Date("2026-12-02T02:00:00Z");
    await expect(markAttendance(db, { session_id: s1!.id, enrollment_id: e.id, status: "absent", user: other, now: lastDay })).rejects.toThrow(/not found/);
    expect((await markAttendance(db, { session_id: s1!.id, enrollment_id: e.id, status: "absent", user: trainer, now: lastDay })).alerted).toBe(false);
    expect((await markAttendance(db, { session_id: s2!.id, enrollment_id: e.id, status: "absent", user: trainer, now: lastDay })).alerted).toBe(true);
    expect((await markAttendance(db, { session_id: s2!.id, enrollment_id: e.id, status: "absent", user: trainer, now: lastDay })).alerted).toBe(false);
    await markAttendance(db, { session_id: s3!.id, enrollment_id: e.id, status: "late", user: trainer, now: lastDay });
    expect((await listAttendanceAlerts(db)).filter((a) => a.student_id === s.id)).toHaveLength(1);
    expect((await attendanceForStudent(db, s.id))[e.id]).toEqual({ sessions: 3, present: 0, late: 1, absent: 2 });
    const mailer = collector();
    await runJobs(db, mailer, NOW);
    await runJobs(db, mailer, NOW);
    expect(mailer.sent.filter((m) => m.subject.startsWith("Attendance:"))).toHaveLength(
      await db
        .selectFrom("users")
        .select("id")
        .where("role", "=", "admin")
        .where("is_active", "=", 1)
        .execute()
        .then((r) => r.length),
    );
    const mine = await listTrainerClasses(db, trainer, new Date("2026-12-01T01:00:00Z"));
    expect(mine[0]!.id).toBe(cls.id); // running today comes first
    expect(mine[0]).toMatchObject({ runs_today: true, past: false });
    // after its last day it is listed as past
    const later = await listTrainerClasses(db, trainer, new Date("2027-01-15T01:00:00Z"));
    expect(later.find((c) => c.id === cls.id)).toMatchObject({ runs_today: false, past: true });
  });
});

describe("a trainer's My Classes", () => {
  it("lists today's class first, then the coming ones soonest first, then the past ones newest first, each past one marked", async () => {
    const own = await makeUser(db, { role: "trainer" });
    const course = await makeCourse(db);
    const made = new Date("2026-01-05T00:00:00Z");
    const at = async (date: string) =>
      (
        await createClass(
          db,
          course.id,
          { start_date: date, end_date: date, sessions: [{ date, starts_at: "07:30", ends_at: "15:30" }], trainer_id: own.id, seats: 3 },
          own.id,
          made,
        )
      ).id;
    const [oldPast, recentPast, later, sooner, today] = [
      await at("2026-03-02"),
      await at("2026-11-02"),
      await at("2027-02-01"),
      await at("2026-12-14"),
      await at("2026-12-01"),
    ];
    const listed = await listTrainerClasses(db, { id: own.id, role: "trainer" }, new Date("2026-12-01T01:00:00Z"));
    expect(listed.map((c) => c.id)).toEqual([today, sooner, later, recentPast, oldPast]);
    expect(listed.map((c) => c.past)).toEqual([false, false, false, true, true]);
  });
});

describe("the learner's attendance notifications", () => {
  it("are one per day in Australian dates under Attendance: marking again rewrites that day's and makes it unread, it adds none", async () => {
    const sessions = [
      { date: "2026-11-30", starts_at: "07:30", ends_at: "15:30" },
      { date: "2026-12-01", starts_at: "07:30", ends_at: "15:30" },
    ];
    const { course, cls } = await oneSeatClass(2, "2026-11-30", sessions);
    const s = await makeUser(db);
    const e = await createEnrollment(db, { studentId: s.id, courseId: course.id, classId: cls.id, now: NOW });
    const [s1, s2] = (await getRoster(db, cls.id, trainer))!.sessions;
    const day = new Date("2026-12-01T02:00:00Z");
    await markAttendance(db, { session_id: s1!.id, enrollment_id: e.id, status: "present", user: trainer, now: day });
    await markAttendance(db, { session_id: s2!.id, enrollment_id: e.id, status: "absent", user: trainer, now: day });
    await markNotificationsRead(db, s.id, new Date("2026-12-01T03:00:00Z"));
    await markAttendance(db, { session_id: s2!.id, enrollment_id: e.id, status: "late", user: trainer, now: new Date("2026-12-01T04:00:00Z") });
    const notes = (await listNotifications(db, s.id, 100)).filter((n) => n.entity_type === "attendance");
    const { name } = await db.selectFrom("courses").select("name").where("id", "=", course.id).executeTakeFirstOrThrow();
    expect(notes.map((n) => ({ type: n.type, message: n.message, unread: n.unread }))).toEqual([
      { type: "attendance.day", message: `Attendance on 1 Dec 2026: ${name}, late.`, unread: true },
      { type: "attendance.day", message: `Attendance on 30 Nov 2026: ${name}, present.`, unread: false },
    ]);
    expect(await countUnreadNotifications(db, s.id)).toBe((await listNotifications(db, s.id, 100)).filter((n) => n.unread).length);
  });
});

describe("the learner's next session (their dashboard)", () => {
  it("is the first session of their classes still to end, with its place; none once the last has ended, or without a class", async () => {
    const sessions = [
      { date: "2026-11-30", starts_at: "07:30", ends_at: "15:30" },
      { date: "2026-12-01", starts_at: "08:00", ends_at: "12:00" },
    ];
    const { course, cls } = await oneSeatClass(1, "2026-11-30", sessions);
    const s = await makeUser(db);
    await createEnrollment(db, { studentId: s.id, courseId: course.id, classId: cls.id, now: NOW });
    expect(await nextSessionForStudent(db, s.id, NOW)).toMatchObject({ date: "2026-11-30", starts_at: "07:30", ends_at: "15:30" });
    // 1 pm in Sydney on 30 Nov: the day's session is still on
    expect(await nextSessionForStudent(db, s.id, new Date("2026-11-30T02:00:00Z"))).toMatchObject({ date: "2026-11-30" });
    // 5 pm: it has ended, the next is the morning after
    expect(await nextSessionForStudent(db, s.id, new Date("2026-11-30T06:00:00Z"))).toMatchObject({ date: "2026-12-01", starts_at: "08:00" });
    expect(await nextSessionForStudent(db, s.id, new Date("2026-12-01T02:00:00Z"))).toBeNull();
    expect(await nextSessionForStudent(db, (await makeUser(db)).id, NOW)).toBeNull();
  });
});

describe("marks before a session's day", () => {
  it("are refused with 409 and store nothing; on the day (Sydney, before its start time) they are taken", async () => {
    const sessions = [
      { date: "2026-12-10", starts_at: "07:30", ends_at: "15:30" },
      { date: "2026-12-11", starts_at: "07:30", ends_at: "15:30" },
    ];
    const { course, cls } = await oneSeatClass(2, "2026-12-10", sessions);
    const e = await createEnrollment(db, { studentId: (await makeUser(db)).id, courseId: course.id, classId: cls.id, now: NOW });
    const [first, second] = (await getRoster(db, cls.id, trainer))!.sessions;
    // 6:30 am on 10 Dec in Sydney is 19:30 UTC on 9 Dec
    const dayOne = new Date("2026-12-09T19:30:00Z");
    const refused = await markAttendance(db, { session_id: second!.id, enrollment_id: e.id, status: "present", user: trainer, now: dayOne }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ status: 409, message: SESSION_NOT_STARTED });
    await markAttendance(db, { session_id: first!.id, enrollment_id: e.id, status: "present", user: trainer, now: dayOne });
    const marks = await db.selectFrom("attendance").select(["session_id", "status"]).where("enrollment_id", "=", e.id).execute();
    expect(marks).toEqual([{ session_id: first!.id, status: "present" }]);
  });
});

describe("a cancelled class's learners", () => {
  it("keep their enrolment with no class, are told so, and choose another class of the course: the seat is taken once", async () => {
    const { course, cls } = await oneSeatClass(2);
    const other = await createClass(
      db,
      course.id,
      {
        start_date: "2026-12-14",
        end_date: "2026-12-14",
        sessions: [{ date: "2026-12-14", starts_at: "07:30", ends_at: "15:30" }],
        trainer_id: trainer.id,
        seats: 1,
      },
      trainer.id,
      NOW,
    );
    const [a, b] = await Promise.all([makeUser(db, { full_name: "Ari Freed" }), makeUser(db, { full_name: "Bo Freed" })]);
    const ea = await createEnrollment(db, { studentId: a.id, courseId: course.id, classId: cls.id, now: NOW });
    await createEnrollment(db, { studentId: b.id, courseId: course.id, classId: cls.id, now: NOW });

    const cancelled = await cancelClass(db, cls.id, trainer.id, NOW);
    expect(cancelled.freed).toBe(2);
    const rows = await db.selectFrom("enrollments").select(["id", "class_id", "status"]).where("course_id", "=", course.id).orderBy("id").execute();
    expect(rows.every((r) => r.class_id === null && r.status === "enrolled")).toBe(true);
    expect(await enrollmentState(db, a.id, course.id)).toBe("choose-class");
    const mail = await db.selectFrom("outbox_messages").select("data").where("key", "=", `class-cancelled:${cls.id}:${a.id}`).executeTakeFirstOrThrow();
    expect(JSON.parse(String(mail.data))).toMatchObject({ kept: true });
    expect(
      classCancelledEmail({
        to: "a@example.com",
        fullName: "Ari Freed",
        course: "C",
        start: "2026-12-07",
        end: "2026-12-07",
        link: "L",
        kept: true,
        rto: renderCtx.rto,
      }).text,
    ).toContain("You are still enrolled in the course");

    // the same enrolment takes the one seat of the other class; the second learner finds it full
    const chosen = await createEnrollment(db, { studentId: a.id, courseId: course.id, classId: other.id, now: NOW });
    expect(chosen).toMatchObject({ id: ea.id, class_id: other.id });
    await expect(createEnrollment(db, { studentId: b.id, courseId: course.id, classId: other.id, now: NOW })).rejects.toThrow(CLASS_FULL);
    expect(await enrollmentState(db, a.id, course.id)).toBe("enrolled");
    await expect(createEnrollment(db, { studentId: a.id, courseId: course.id, classId: other.id, now: NOW })).rejects.toThrow(/already enrolled/);
    const seated = await db.selectFrom("enrollments").select("id").where("class_id", "=", other.id).execute();
    expect(seated).toEqual([{ id: ea.id }]);
    expect(await db.selectFrom("enrollments").select("planned_start_date").where("id", "=", ea.id).executeTakeFirstOrThrow()).toEqual({
      planned_start_date: "2026-12-14",
    });
  });
});

describe("a seat change", () => {
  it("names the offers it made, and the office reads the class's roster and waitlist", async () => {
    const { course, cls } = await oneSeatClass();
    const [holder, first, second] = await Promise.all([
      makeUser(db, { full_name: "Hal Holder" }),
      makeUser(db, { full_name: "Fay First" }),
      makeUser(db, { full_name: "Sid Second" }),
    ]);
    await createEnrollment(db, { studentId: holder.id, courseId: course.id, classId: cls.id, now: NOW });
    await joinWaitlist(db, { classId: cls.id, studentId: first.id, now: NOW });
    await joinWaitlist(db, { classId: cls.id, studentId: second.id, now: new Date(NOW.getTime() + 1000) });
    const saved = await updateClass(db, cls.id, { seats: 2 }, trainer.id, NOW);
    const expires = new Date(NOW.getTime() + 48 * HOUR).toISOString();
    expect(saved.offersMade).toEqual([{ student_id: first.id, full_name: "Fay First", offer_expires_at: expires }]);
    expect(classSavedMessage({ from: 1, to: 2 }, saved.offersMade, formatDateTime)).toBe(
      "Seats raised to 2: a seat was offered to Fay First, the offer expires 22 Nov 2026, 11:00 am",
    );
    const people = await classPeople(db, cls.id, NOW);
    expect(people.learners.map((l) => l.full_name)).toEqual(["Hal Holder"]);
    expect(people.waitlist).toEqual([
      { student_id: first.id, full_name: "Fay First", status: "offered", place: null, offer_expires_at: expires },
      { student_id: second.id, full_name: "Sid Second", status: "waiting", place: 1, offer_expires_at: null },
    ]);
    expect((await updateClass(db, cls.id, { seats: 2 }, trainer.id, NOW)).offersMade).toEqual([]);
  });
});

describe("sessions typed in the class form", () => {
  it("one row each, blank rows dropped; the class runs from its first session to its last", async () => {
    const course = await makeCourse(db);
    const parsed = classFormSchema.safeParse({
      session_date: ["2026-12-16", "", "2026-12-15"],
      session_start: ["08:00", "", "07:30"],
      session_end: ["12:00", "", "15:30"],
      trainer_id: trainer.id,
      seats: "6",
    });
    expect(parsed.success).toBe(true);
    const created = await createClass(db, course.id, parsed.data!, trainer.id, NOW);
    expect(created).toMatchObject({ start_date: "2026-12-15", end_date: "2026-12-16", seats: 6 });
    expect(created.sessions.map((s) => `${s.date} ${s.starts_at}-${s.ends_at}`)).toEqual(["2026-12-15 07:30-15:30", "2026-12-16 08:00-12:00"]);
  });

  it("refuses a row that is not a date and time, keyed by its field; no session at all points at the first row", () => {
    const bad = parseWith(classFormSchema, { session_date: "1/2/2027", session_start: "7:30am", session_end: "15:30", trainer_id: "t", seats: "4" });
    expect(bad.success).toBe(false);
    if (bad.success) return;
    expect(bad.fieldErrors).toMatchObject({
      [sessionFieldId("session_date", 0)]: "Session 1: Session date must be a date (YYYY-MM-DD)",
      [sessionFieldId("session_start", 0)]: "Session 1: Start time must be a time (HH:MM)",
    });
    const backwards = parseWith(classFormSchema, {
      session_date: ["2026-12-15", "2026-12-16"],
      session_start: ["07:30", "15:00"],
      session_end: ["15:30", "09:00"],
      trainer_id: "t",
      seats: "4",
    });
    expect(!backwards.success && backwards.fieldErrors[sessionFieldId("session_end", 1)]).toBe("Session 2: A session must end after it starts");
    const none = parseWith(classFormSchema, { session_date: "", session_start: "", session_end: "", trainer_id: "t", seats: "4" });
    expect(!none.success && none.fieldErrors[sessionFieldId("session_date", 0)]).toBe("Add at least one session");
  });
});

describe("reminders", () => {
  it("go two days before a class starts, once, with two workers running the jobs at the same time", async () => {
    const { course, cls } = await oneSeatClass(5, "2026-12-09");
    const learners = await Promise.all([makeUser(db), makeUser(db), makeUser(db)]);
    for (const l of learners) await createEnrollment(db, { studentId: l.id, courseId: course.id, classId: cls.id, now: NOW });
    const emails = await db
      .selectFrom("users")
      .select("email")
      .where(
        "id",
        "in",
        learners.map((l) => l.id),
      )
      .execute();
    const mine = (m: MailMessage) => m.subject.startsWith("Reminder") && emails.some((e) => e.email === m.to);
    const twoDaysBefore = new Date("2026-12-06T22:00:00Z"); // 7 December, 9 am in Sydney
    const mailer = collector();
    const tooEarly = collector();
    await runJobs(db, tooEarly, new Date("2026-12-05T22:00:00Z"));
    expect(tooEarly.sent.filter(mine)).toHaveLength(0);
    const second = TEST_DIALECT === "postgres" ? openDatabase(url) : db;
    try {
      await Promise.all([runJobs(db, mailer, twoDaysBefore), runJobs(second, mailer, twoDaysBefore), runJobs(db, mailer, twoDaysBefore)]);
    } finally {
      if (second !== db) await second.destroy();
    }
    expect(
      mailer.sent
        .filter(mine)
        .map((m) => m.to)
        .sort(),
    ).toEqual(emails.map((e) => e.email).sort());
    const again = collector();
    await runJobs(db, again, new Date("2026-12-07T22:00:00Z"));
    expect(again.sent.filter(mine)).toHaveLength(0);
  });
});

describe("the calendar feed", () => {
  it("lists the learner's sessions at the right times in the RTO's time zone, read back by node-ical; renewing ends the old URL", async () => {
    const sessions = [
      { date: "2026-12-10", starts_at: "07:30", ends_at: "15:30" },
      { date: "2026-12-11", starts_at: "08:00", ends_at: "12:00" },
    ];
    const { course, cls } = await oneSeatClass(2, "2026-12-10", sessions);
    const s = await makeUser(db);
    await createEnrollment(db, { studentId: s.id, courseId: course.id, classId: cls.id, now: NOW });
    const { token, replaced: first } = await makeCalendarFeed(db, s.id, { replace: false });
    expect(first).toBe(false);
    const text = await calendarFeed(db, token, "Summit");
    // every content line ends with CRLF, the last one too (RFC 5545 3.1)
    expect(text!.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(text!.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const events = Object.values(ical.sync.parseICS(text!)).filter((v) => v?.type === "VEVENT") as ical.VEvent[];
    expect(events).toHaveLength(2);
    const byStart = events.map((e) => [new Date(e.start).toISOString(), new Date(e.end!).toISOString()]).sort();
    // Sydney is UTC+11 in December (daylight saving)
    expect(byStart).toEqual([
      ["2026-12-09T20:30:00.000Z", "2026-12-10T04:30:00.000Z"],
      ["2026-12-10T21:00:00.000Z", "2026-12-11T01:00:00.000Z"],
    ]);
    const { token: trainerToken } = await makeCalendarFeed(db, trainer.id, { replace: true });
    const trainerEvents = Object.values(ical.sync.parseICS((await calendarFeed(db, trainerToken, "Summit"))!)).filter((v) => v?.type === "VEVENT");
    expect(trainerEvents.length).toBeGreaterThanOrEqual(2);
    // making it again without asking to replace it keeps the address just made working
    await expect(makeCalendarFeed(db, s.id, { replace: false })).rejects.toMatchObject({ status: 409, message: FEED_EXISTS });
    expect(await calendarFeed(db, token, "Summit")).toContain("BEGIN:VEVENT");
    const { token: renewed, replaced } = await makeCalendarFeed(db, s.id, { replace: true });
    expect(replaced).toBe(true);
    expect(await calendarFeed(db, token, "Summit")).toBeNull();
    expect(await calendarFeed(db, renewed, "Summit")).toContain("BEGIN:VEVENT");
  });
});
