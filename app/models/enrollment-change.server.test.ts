import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { recognitionApplyInput, recognitionDecideInput } from "~/schemas/recognition";
import { REVIEW_HOLD_DAYS } from "~/schemas/review-text";
import { webhookEndpointSchema } from "~/schemas/webhooks";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { createTestDb } from "../../tests/support/test-db";
import { recordAssessment } from "./assessment.server";
import { cancelClass, createClass, updateClass } from "./class.server";
import { createEnrollment, setPlannedDates, updateEnrollmentProgress } from "./enrollment.server";
import { applyForRecognition, authenticateCreditTransfer, decideRecognition } from "./recognition/recognition.server";
import { overrideReview, releaseStaleReviewHolds } from "./review.server";
import { ENROLLMENT_PAYLOAD_COLUMNS } from "~/schemas/webhooks";
import { createWebhookEndpoint } from "./webhooks.server";
import { checkedStatement } from "../../tests/support/recognition";

/**
 * Every change of an enrolment's status, progress, class or dates queues one enrolment.changed
 * for the endpoints listening, and making one queues one enrolment.created and nothing else:
 * read from the deliveries queued, as a receiver would be sent them.
 */

let db: DB;
let cleanup: () => Promise<void>;
let admin: { id: string };
let trainer: { id: string };
const NOW = new Date();
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  admin = await makeUser(db, { role: "admin" });
  trainer = await makeUser(db, { role: "trainer" });
  const input = webhookEndpointSchema.parse({ url: "http://127.0.0.1:9/hook", events: ["enrolment.created", "enrolment.changed"], audience: "admin" });
  await createWebhookEndpoint(db, input, { actorId: admin.id, policy: { allowPrivate: false, allowLoopbackByName: true } });
});
afterAll(async () => cleanup());

interface Queued {
  type: string;
  enrolment: Record<string, unknown>;
}

/** The enrolment events queued about one enrolment, oldest first. */
async function queuedFor(enrollmentId: string): Promise<Queued[]> {
  const rows = await db.selectFrom("webhook_deliveries").select(["event_type", "payload"]).orderBy("created_at").execute();
  return rows
    .map((r) => ({ type: r.event_type, enrolment: (JSON.parse(r.payload) as { data: { enrolment?: Record<string, unknown> } }).data.enrolment }))
    .filter((q): q is Queued => q.enrolment?.id === enrollmentId);
}

/** The enrolment.changed events queued about one enrolment, oldest first. */
async function changesOf(enrollmentId: string): Promise<Queued[]> {
  return (await queuedFor(enrollmentId)).filter((q) => q.type === "enrolment.changed");
}

/** The enrolment.changed events `act` queued about one enrolment. */
async function changedBy(enrollmentId: string, act: () => Promise<unknown>): Promise<Queued[]> {
  const before = (await changesOf(enrollmentId)).length;
  await act();
  return (await changesOf(enrollmentId)).slice(before);
}

async function row(enrollmentId: string) {
  return db.selectFrom("enrollments").select(ENROLLMENT_PAYLOAD_COLUMNS).where("id", "=", enrollmentId).executeTakeFirstOrThrow();
}

async function classOf(courseId: string, start = "2099-03-02", end = "2099-03-03") {
  return createClass(
    db,
    courseId,
    {
      start_date: start,
      end_date: end,
      sessions: [
        { date: start, starts_at: "07:30", ends_at: "15:30" },
        { date: end, starts_at: "07:30", ends_at: "15:30" },
      ],
      trainer_id: trainer.id,
      seats: 5,
    },
    admin.id,
    NOW,
  );
}

async function enrolInClass() {
  const course = await makeCourse(db);
  const cls = await classOf(course.id);
  const student = await makeUser(db);
  const made = await createEnrollment(db, { studentId: student.id, courseId: course.id, classId: cls.id, now: NOW });
  return { course, cls, student, enrollmentId: made.id };
}

describe("making an enrolment", () => {
  it("in a course with classes queues enrolment.created once, carrying the enrolment as its transaction left it, and no enrolment.changed", async () => {
    const { cls, enrollmentId } = await enrolInClass();
    const queued = await queuedFor(enrollmentId);
    expect(queued.map((q) => q.type)).toEqual(["enrolment.created"]);
    expect(queued[0]!.enrolment).toEqual(await row(enrollmentId));
    expect(queued[0]!.enrolment).toMatchObject({ class_id: cls.id, status: "enrolled" });
  });

  it("in a course without classes queues enrolment.created once", async () => {
    const course = await makeCourse(db);
    const student = await makeUser(db);
    const made = await createEnrollment(db, { studentId: student.id, courseId: course.id, now: NOW });
    expect((await queuedFor(made.id)).map((q) => q.type)).toEqual(["enrolment.created"]);
  });
});

describe("each change of an enrolment queues one enrolment.changed", () => {
  it("a credit transfer granted: completed, progress 100, class cleared", async () => {
    const { student, enrollmentId } = await enrolInClass();
    const learner = { id: student.id, role: "student" as const };
    const applied = await applyForRecognition(
      db,
      learner,
      recognitionApplyInput.parse({ enrollment_id: enrollmentId, kind: "credit_transfer", statement: "I hold this unit from another RTO" }),
      student.id,
    );
    const asAdmin = { id: admin.id, role: "admin" as const };
    await authenticateCreditTransfer(db, asAdmin, applied.id, checkedStatement(), admin.id);
    const changed = await changedBy(enrollmentId, () =>
      decideRecognition(
        db,
        asAdmin,
        applied.id,
        recognitionDecideInput.parse({ decision: "granted", reasons: "Evidence reviewed against the unit" }),
        admin.id,
      ),
    );
    expect(changed).toHaveLength(1);
    expect(changed[0]!.enrolment).toMatchObject({ status: "completed", progress_percentage: 100, class_id: null });
    expect(changed[0]!.enrolment).toEqual(await row(enrollmentId));
  });

  it("a trainer's first assessment moving it from enrolled to in progress; a second result changes nothing", async () => {
    const { enrollmentId } = await enrolInClass();
    const result = {
      enrollment_id: enrollmentId,
      assessment_type: "Practical" as const,
      status: "in_progress" as const,
      score: null,
      max_score: null,
      assessment_date: "2099-03-02",
      feedback: null,
      actorId: trainer.id,
    };
    const first = await changedBy(enrollmentId, () => recordAssessment(db, { ...result, now: new Date("2099-03-02T03:00:00Z") }));
    expect(first).toHaveLength(1);
    expect(first[0]!.enrolment).toMatchObject({ status: "in_progress" });
    expect(first[0]!.enrolment).toEqual(await row(enrollmentId));
    const second = await changedBy(enrollmentId, () => recordAssessment(db, { ...result, assessment_type: "Written", now: new Date("2099-03-02T04:00:00Z") }));
    expect(second).toEqual([]);
  });

  it("a seat held for a review never taken, withdrawn when the hold runs out; a review outcome overridden is no such change", async () => {
    const course = await makeCourse(db);
    await db.updateTable("courses").set({ review_required: 1, review_retake_days: 1 }).where("id", "=", course.id).execute();
    const cls = await classOf(course.id);
    const student = await makeUser(db);
    const made = await createEnrollment(db, {
      studentId: student.id,
      courseId: course.id,
      classId: cls.id,
      now: new Date(NOW.getTime() - (REVIEW_HOLD_DAYS + 1) * 86_400_000),
    });
    const released = await changedBy(made.id, () => releaseStaleReviewHolds(db, NOW));
    expect(released).toHaveLength(1);
    expect(released[0]!.enrolment).toMatchObject({ status: "withdrawn" });
    // the review's outcome is not a status, progress, class or date
    const overridden = await changedBy(made.id, () =>
      overrideReview(db, { enrollmentId: made.id, change: { outcome: "suitable", reason: "Checked with the learner" }, actor: admin.id, now: later(5) }),
    );
    expect(overridden).toEqual([]);
  });

  it("a cancelled class releasing its learners, one event each; a completed learner keeps the class and hears nothing", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await createEnrollment(db, { studentId: (await makeUser(db)).id, courseId: course.id, classId: cls.id, now: NOW })).id);
    await db.updateTable("enrollments").set({ status: "completed", progress_percentage: 100 }).where("id", "=", ids[2]!).execute();
    const before = await Promise.all(ids.map(async (id) => (await changesOf(id)).length));
    await cancelClass(db, cls.id, admin.id, later(10));
    const after = await Promise.all(ids.map(async (id, i) => (await changesOf(id)).slice(before[i])));
    expect(after.map((changed) => changed.length)).toEqual([1, 1, 0]);
    for (const [changed] of after.slice(0, 2)) expect(changed!.enrolment).toMatchObject({ class_id: null, status: "enrolled" });
  });

  it.each([
    ["on other dates: the seat and its dates are one change", "2099-04-06", "2099-04-07"],
    ["on the same dates: the seat alone is a change", "2099-03-02", "2099-03-03"],
  ])("a learner whose class was cancelled choosing another %s", async (_name, start, end) => {
    const course = await makeCourse(db);
    const first = await classOf(course.id);
    const second = await classOf(course.id, start, end);
    const student = await makeUser(db);
    const made = await createEnrollment(db, { studentId: student.id, courseId: course.id, classId: first.id, now: NOW });
    await cancelClass(db, first.id, admin.id, later(10));
    const chosen = await changedBy(made.id, () => createEnrollment(db, { studentId: student.id, courseId: course.id, classId: second.id, now: later(20) }));
    expect(chosen).toHaveLength(1);
    expect(chosen[0]!.enrolment).toEqual(await row(made.id));
    expect(chosen[0]!.enrolment).toMatchObject({ class_id: second.id });
  });

  it("progress and status set by staff, planned dates set, and a class's new dates, once each", async () => {
    const { cls, enrollmentId } = await enrolInClass();
    const once = async (act: () => Promise<unknown>) => expect(await changedBy(enrollmentId, act)).toHaveLength(1);
    await once(() => updateEnrollmentProgress(db, { enrollmentId, progress: 40, status: "in_progress", actorId: trainer.id, now: later(30) }));
    await once(() => setPlannedDates(db, { enrollmentId, start: "2099-03-02", end: "2099-03-09", actorId: admin.id, now: later(40) }));
    await once(() =>
      updateClass(
        db,
        cls.id,
        { start_date: "2099-03-09", end_date: "2099-03-10", sessions: [{ date: "2099-03-09", starts_at: "07:30", ends_at: "15:30" }] },
        admin.id,
        later(50),
      ),
    );
  });
});

describe("every update of an enrolment", () => {
  it("goes through enrollment-change.server.ts, which tells receivers of it", () => {
    const app = path.resolve(__dirname, "..");
    const offending: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !full.endsWith("enrollment-change.server.ts")) {
          if (/updateTable\(\s*["'`]enrollments\b|update\s+"?enrollments\b/i.test(fs.readFileSync(full, "utf8"))) offending.push(path.relative(app, full));
        }
      }
    };
    walk(app);
    expect(offending).toEqual([]);
  });
});
