import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssessmentStatus } from "#db/schema";
import { writeTransaction, type DB } from "#db/connection";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { createTestDb } from "../../tests/support/test-db";
import { assessmentSchema } from "~/schemas/assessment";
import { organisationDate, organisationToday } from "~/utils/organisation-calendar";
import { setPlannedDates, updateEnrollmentProgress } from "./enrollment.server";
import { enrollmentUpdateSchema } from "~/schemas/enrollment-update";
import { parseWith } from "~/utils/validation";
import {
  countAssessmentsByStatus,
  countPendingAssessments,
  ENROLLMENT_NOT_CURRENT,
  listAssessments,
  listPendingAssessments,
  recordAssessment,
} from "./assessment.server";

const DAY = 864e5;
const dateOffset = (days: number) => organisationToday(new Date(Date.now() + days * DAY));

function form(overrides: Record<string, string> = {}) {
  return {
    enrollment_id: "7d1c9a4e-2f5b-4c3d-9e8f-0a1b2c3d4e5f",
    assessment_type: "Written",
    status: "passed",
    score: "80",
    max_score: "100",
    assessment_date: organisationToday(),
    feedback: "",
    ...overrides,
  };
}

describe("the assessment form's rules", () => {
  const errors = (input: Record<string, string>) => {
    const r = parseWith(assessmentSchema, input);
    return r.success ? {} : r.fieldErrors;
  };

  it("accepts a marked result with whole-number score within the max", () => {
    const r = parseWith(assessmentSchema, form({ score: "0", max_score: "1" }));
    expect(r.success).toBe(true);
    if (r.success) expect([r.data.score, r.data.max_score, r.data.feedback]).toEqual([0, 1, null]);
    expect(parseWith(assessmentSchema, form({ score: "100", max_score: "100" })).success).toBe(true);
  });

  it("refuses a score above the max, a max below 1, negatives, decimals and text", () => {
    expect(errors(form({ score: "101", max_score: "100" })).score).toBe("Score cannot be more than the max score (100)");
    expect(errors(form({ score: "0", max_score: "0" })).max_score).toMatch(/between 1 and 1000/);
    expect(errors(form({ score: "5", max_score: "1001" })).max_score).toMatch(/between 1 and 1000/);
    expect(errors(form({ score: "-1" })).score).toMatch(/whole number/);
    expect(errors(form({ score: "72.5" })).score).toMatch(/whole number/);
    expect(errors(form({ max_score: "ten" })).max_score).toMatch(/whole number/);
  });

  it("lets an unmarked assessment leave both scores blank, but never just one", () => {
    expect(parseWith(assessmentSchema, form({ status: "in_progress", score: "", max_score: "" })).success).toBe(true);
    expect(parseWith(assessmentSchema, form({ status: "resubmission", score: "", max_score: "", feedback: "Redo Q3" })).success).toBe(true);
    expect(errors(form({ status: "passed", score: "", max_score: "" }))).toMatchObject({
      score: "A passed or failed result needs a score",
      max_score: "A passed or failed result needs a max score",
    });
    expect(errors(form({ status: "in_progress", score: "", max_score: "50" })).score).toMatch(/Enter a score/);
    expect(errors(form({ status: "in_progress", score: "20", max_score: "" })).max_score).toMatch(/Enter a max score/);
    expect(errors(form({ status: "failed", score: "", max_score: "100", feedback: "x" })).score).toBe("A passed or failed result needs a score");
  });

  it("refuses future dates, impossible dates and dates before 2000", () => {
    expect(errors(form({ assessment_date: dateOffset(2) })).assessment_date).toBe("Assessment date cannot be in the future");
    expect(errors(form({ assessment_date: "2025-02-30" })).assessment_date).toMatch(/real date/);
    expect(errors(form({ assessment_date: "1999-12-31" })).assessment_date).toMatch(/real date/);
    expect(errors(form({ assessment_date: "12/01/2025" })).assessment_date).toMatch(/YYYY-MM-DD/);
    expect(errors(form({ assessment_date: "" })).assessment_date).toBe("Assessment date is required");
    expect(parseWith(assessmentSchema, form({ assessment_date: dateOffset(-30) })).success).toBe(true);
  });

  it("needs feedback for a failed or resubmission result, and a known type and status", () => {
    expect(errors(form({ status: "failed", score: "40" })).feedback).toMatch(/feedback/i);
    expect(errors(form({ assessment_type: "Telepathy" })).assessment_type).toMatch(/Written, Practical, Oral, Observation/);
    expect(errors(form({ status: "pending" })).status).toMatch(/passed, failed/);
    expect(errors(form({ enrollment_id: "" })).enrollment_id).toBe("Choose the student's enrolment");
    expect(errors(form({ enrollment_id: "not-a-uuid" })).enrollment_id).toBe("Choose the student's enrolment");
  });
});

describe("the enrollment update form's rules", () => {
  it("takes progress as a whole number from 0 to 100", () => {
    expect(parseWith(enrollmentUpdateSchema, { progress: "0", status: "enrolled" }).success).toBe(true);
    expect(parseWith(enrollmentUpdateSchema, { progress: "100", status: "in_progress" }).success).toBe(true);
    for (const bad of ["101", "-1", "50.5", "lots"]) {
      const r = parseWith(enrollmentUpdateSchema, { progress: bad, status: "in_progress" });
      expect(r.success, bad).toBe(false);
      if (!r.success) expect(r.fieldErrors.progress).toMatch(/Progress/);
    }
  });

  it("completing means 100%, and 'enrolled' means not started", () => {
    const done = parseWith(enrollmentUpdateSchema, { progress: "40", status: "completed" });
    expect(done.success && done.data.progress).toBe(100);
    const r = parseWith(enrollmentUpdateSchema, { progress: "10", status: "enrolled" });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.fieldErrors.status).toMatch(/choose In progress/);
    const s = parseWith(enrollmentUpdateSchema, { progress: "10", status: "paused" });
    expect(s.success).toBe(false);
  });
});

describe("recording assessments", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  let trainerId: string;
  let courseId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
    trainerId = (await makeUser(db, { role: "trainer", full_name: "Tess Trainer" })).id;
    courseId = (await makeCourse(db, { name: "Dogging", tier: "tier_1" })).id;
  });
  afterAll(async () => cleanup());

  async function freshEnrollment(status: "enrolled" | "in_progress" | "completed" | "withdrawn" = "enrolled", enrolledDaysAgo = 10) {
    const student = await makeUser(db, { full_name: "Sam Student" });
    const enrollment = await makeEnrollment(db, student.id, courseId, {
      status,
      enrollment_date: new Date(Date.now() - enrolledDaysAgo * DAY).toISOString(),
    });
    return { studentId: student.id, enrollmentId: enrollment.id };
  }

  const input = (enrollmentId: string, overrides: Partial<Parameters<typeof recordAssessment>[1]> = {}) => ({
    enrollment_id: enrollmentId,
    assessment_type: "Practical" as const,
    status: "passed" as const,
    score: 45,
    max_score: 50,
    assessment_date: organisationToday(),
    feedback: "Competent",
    actorId: trainerId,
    ...overrides,
  });

  it("stores the assessment, starts an enrolled course and records who did it", async () => {
    const { studentId, enrollmentId } = await freshEnrollment("enrolled");
    const { id } = await recordAssessment(db, input(enrollmentId));
    const row = await db.selectFrom("assessments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ student_id: studentId, course_id: courseId, score: 45, max_score: 50, status: "passed", assessed_by: trainerId });
    expect(row.assessment_date).toBe(`${organisationToday()}T00:00:00.000Z`);
    const enrollment = await db.selectFrom("enrollments").selectAll().where("id", "=", enrollmentId).executeTakeFirstOrThrow();
    expect(enrollment.status).toBe("in_progress");
    const events = await db.selectFrom("events").selectAll().where("subject_user_id", "=", studentId).orderBy("type").execute();
    expect(events.map((e) => [e.type, e.actor_id])).toEqual([
      ["assessment.recorded", trainerId],
      ["enrollment.status", trainerId],
    ]);
    expect(events[0]!.message).toBe("Practical assessment for Dogging: passed (45/50)");
  });

  it("settles the open assessment of the same kind rather than adding a row beside it", async () => {
    const { enrollmentId } = await freshEnrollment("enrolled");
    const started = await recordAssessment(db, input(enrollmentId, { status: "in_progress", score: null, max_score: null, feedback: null }));
    // another kind of assessment stays its own row
    await recordAssessment(
      db,
      input(enrollmentId, { assessment_type: "Written", status: "failed", score: 10, max_score: 50, feedback: "Resit the load chart" }),
    );
    const settled = await recordAssessment(db, input(enrollmentId, { status: "passed", score: 48, max_score: 50 }));
    expect(settled.id).toBe(started.id);
    const rows = await db
      .selectFrom("assessments")
      .select(["assessment_type", "status", "score"])
      .where("enrollment_id", "=", enrollmentId)
      .orderBy("assessment_type")
      .execute();
    expect(rows).toEqual([
      { assessment_type: "Practical", status: "passed", score: 48 },
      { assessment_type: "Written", status: "failed", score: 10 },
    ]);
    // a settled (failed) one is history: the resit is a new row
    await recordAssessment(db, input(enrollmentId, { assessment_type: "Written", status: "passed", score: 40, max_score: 50 }));
    expect(await db.selectFrom("assessments").select("id").where("enrollment_id", "=", enrollmentId).execute()).toHaveLength(3);
    const audit = await db.selectFrom("audit_log").select("detail").where("subject_id", "=", started.id).orderBy("id").execute();
    expect(audit.map((a) => a.detail)).toEqual(["Practical: in progress", "Practical: in progress \u2192 passed"]);
  });

  it("refuses completed and withdrawn enrolments, unknown ones, and dates before the training began", async () => {
    for (const status of ["completed", "withdrawn"] as const) {
      const { enrollmentId } = await freshEnrollment(status);
      await expect(recordAssessment(db, input(enrollmentId))).rejects.toMatchObject({
        status: 409,
        message: ENROLLMENT_NOT_CURRENT,
        fieldErrors: { enrollment_id: ENROLLMENT_NOT_CURRENT },
      });
    }
    await expect(recordAssessment(db, input(crypto.randomUUID()))).rejects.toMatchObject({ status: 404 });
    const { enrollmentId } = await freshEnrollment("in_progress", 3);
    await expect(recordAssessment(db, input(enrollmentId, { assessment_date: dateOffset(-5) }))).rejects.toMatchObject({
      status: 422,
      fieldErrors: { assessment_date: `Assessment date cannot be before the training began (${dateOffset(-3)})` },
    });
    const before = await db
      .selectFrom("assessments")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    await expect(recordAssessment(db, input(enrollmentId, { score: 51, max_score: 50 }))).rejects.toMatchObject({ status: 422 });
    const after = await db
      .selectFrom("assessments")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("takes a result dated from the planned start, before the enrolment was typed in, and completes the enrolment on that day", async () => {
    // trained from ten days ago; the office entered the enrolment today
    const { enrollmentId } = await freshEnrollment("in_progress", 0);
    await setPlannedDates(db, { enrollmentId, start: dateOffset(-10), end: dateOffset(-6), actorId: trainerId });
    await expect(recordAssessment(db, input(enrollmentId, { assessment_date: dateOffset(-11) }))).rejects.toMatchObject({
      status: 422,
      fieldErrors: { assessment_date: `Assessment date cannot be before the training began (${dateOffset(-10)})` },
    });
    await recordAssessment(db, input(enrollmentId, { assessment_date: dateOffset(-6) }));
    await updateEnrollmentProgress(db, { enrollmentId, progress: 100, status: "completed", actorId: trainerId });
    const row = await db.selectFrom("enrollments").select("completion_date").where("id", "=", enrollmentId).executeTakeFirstOrThrow();
    expect(organisationDate(row.completion_date!)).toBe(dateOffset(-6));
  });

  it("takes a result dated from the class's first session, and never one in the future (the organisation's calendar)", async () => {
    const { enrollmentId } = await freshEnrollment("in_progress", 0);
    const classId = crypto.randomUUID();
    const at = new Date().toISOString();
    await db
      .insertInto("classes")
      .values({
        id: classId,
        course_id: courseId,
        start_date: dateOffset(-8),
        end_date: dateOffset(-4),
        location_id: null,
        trainer_id: trainerId,
        seats: 8,
        cancelled_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db
      .insertInto("class_sessions")
      .values({ id: crypto.randomUUID(), class_id: classId, session_date: dateOffset(-8), starts_at: "07:30", ends_at: "15:30" })
      .execute();
    await db
      .updateTable("enrollments")
      .set({ class_id: classId, planned_start_date: dateOffset(-4), planned_end_date: dateOffset(-4) })
      .where("id", "=", enrollmentId)
      .execute();
    await expect(
      recordAssessment(db, input(enrollmentId, { assessment_date: dateOffset(-8), status: "in_progress", score: null, max_score: null })),
    ).resolves.toMatchObject({ id: expect.any(String) });
    await expect(recordAssessment(db, input(enrollmentId, { assessment_date: dateOffset(-9) }))).rejects.toMatchObject({ status: 422 });
    await expect(recordAssessment(db, input(enrollmentId, { assessment_date: dateOffset(1) }))).rejects.toMatchObject({
      status: 422,
      fieldErrors: { assessment_date: "Assessment date cannot be in the future" },
    });
  });

  it("refuses a student whose account is inactive", async () => {
    const student = await makeUser(db, { is_active: false });
    const enrollment = await makeEnrollment(db, student.id, courseId, { status: "in_progress" });
    await expect(recordAssessment(db, input(enrollment.id))).rejects.toMatchObject({ status: 409 });
  });
});

describe("assessment figures on the demo data", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb({ seed: true }));
  });
  afterAll(async () => cleanup());

  it("counts by status match the rows", async () => {
    const rows = await db.selectFrom("assessments").select("status").execute();
    const counts = await countAssessmentsByStatus(db);
    for (const status of ["passed", "failed", "in_progress", "resubmission"] as const) {
      expect(counts[status], status).toBe(rows.filter((r) => r.status === status).length);
    }
    expect(counts.total).toBe(rows.length);
    expect(counts.passed).toBeGreaterThan(0);
  });

  it("counts by status are kept exact through a status change and a removal", async () => {
    const byHand = async (q: DB) => {
      const counts = { passed: 0, failed: 0, in_progress: 0, resubmission: 0, total: 0 };
      for (const r of await q.selectFrom("assessments").select("status").execute()) {
        counts[r.status]++;
        counts.total++;
      }
      return counts;
    };
    // one no validation sample names, so it can be removed
    const one = await db
      .selectFrom("assessments")
      .select(["id", "status"])
      .where("status", "=", "passed")
      .where("id", "not in", db.selectFrom("validation_samples").select("assessment_id"))
      .limit(1)
      .executeTakeFirstOrThrow();
    await db.updateTable("assessments").set({ status: "failed" }).where("id", "=", one.id).execute();
    expect(await countAssessmentsByStatus(db)).toEqual(await byHand(db));
    await db.updateTable("assessments").set({ status: one.status }).where("id", "=", one.id).execute();
    expect(await countAssessmentsByStatus(db)).toEqual(await byHand(db));
    // a removal, seen inside its own transaction and then rolled back
    await expect(
      writeTransaction(db, async (trx) => {
        await trx.deleteFrom("assessments").where("id", "=", one.id).execute();
        expect(await countAssessmentsByStatus(trx)).toEqual(await byHand(trx));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await countAssessmentsByStatus(db)).toEqual(await byHand(db));
  });

  it("lists newest first, filters by status and search, and pages", async () => {
    const all = await listAssessments(db, { pageSize: 5 });
    const total = (await countAssessmentsByStatus(db)).total;
    expect(all.total).toBe(total);
    expect(all.items).toHaveLength(5);
    expect(all.pageCount).toBe(Math.ceil(total / 5));
    const days = all.items.map((i) => i.assessment_date.slice(0, 10));
    expect([...days].sort().reverse()).toEqual(days);
    const second = await listAssessments(db, { pageSize: 5, page: 2 });
    expect(second.items.map((i) => i.id)).not.toContain(all.items[0]!.id);
    // a page is the ordered list's slice: the page's ids are chosen first, then their rows read
    const everyOne = await listAssessments(db, { pageSize: 100 });
    const byHand = (await db.selectFrom("assessments").select(["id", "assessment_date", "created_at"]).execute())
      .sort(
        (a, b) =>
          b.assessment_date.slice(0, 10).localeCompare(a.assessment_date.slice(0, 10)) || b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id),
      )
      .map((a) => a.id);
    expect(everyOne.items.map((i) => i.id)).toEqual(byHand.slice(0, 100));
    expect((await listAssessments(db, { pageSize: 3, page: 3 })).items.map((i) => i.id)).toEqual(byHand.slice(6, 9));
    const beyond = await listAssessments(db, { pageSize: 5, page: 999 });
    expect(beyond.page).toBe(all.pageCount);

    const failed = await listAssessments(db, { status: "failed", pageSize: 100 });
    expect(failed.total).toBe((await countAssessmentsByStatus(db)).failed);
    expect(failed.items.every((i) => i.status === "failed")).toBe(true);

    const jordan = await listAssessments(db, { search: "JORDAN mitch", pageSize: 100 });
    // a result on each completed course (completing needs a pass) and two on the course under way
    expect(jordan.total).toBe(5);
    expect(jordan.items.every((i) => i.student.full_name === "Jordan Mitchell")).toBe(true);
    expect(jordan.items[0]!.assessor?.full_name).toBe("Sam Whitfield");
    const jordanSecond = await listAssessments(db, { search: "JORDAN mitch", pageSize: 2, page: 2 });
    expect(jordanSecond.total).toBe(5);
    expect(jordanSecond.items.map((i) => i.id)).toEqual(jordan.items.slice(2, 4).map((i) => i.id));
    expect((await listAssessments(db, { search: "100%_" })).total).toBe(0);
  });

  /** The pending enrolments by the stated definition, worked out from every enrolment and assessment. */
  async function pendingByHand() {
    const enrollments = await db
      .selectFrom("enrollments")
      .innerJoin("users", "users.id", "enrollments.student_id")
      .select(["enrollments.id", "enrollments.status", "users.is_active", "users.role"])
      .execute();
    const assessments = await db.selectFrom("assessments").select(["enrollment_id", "status", "assessment_date", "created_at"]).execute();
    return enrollments.filter((e) => {
      if (e.is_active !== 1 || e.role !== "student" || !["enrolled", "in_progress"].includes(e.status)) return false;
      const mine = assessments
        .filter((a) => a.enrollment_id === e.id)
        .sort((a, b) => b.assessment_date.slice(0, 10).localeCompare(a.assessment_date.slice(0, 10)) || b.created_at.localeCompare(a.created_at));
      const latest = mine[0]?.status;
      return latest === "in_progress" || latest === "resubmission" || (latest === undefined && e.status === "in_progress");
    });
  }

  it("pending assessments follow the stated definition", async () => {
    const expected = await pendingByHand();
    expect(await countPendingAssessments(db)).toBe(expected.length);
    const listed = await listPendingAssessments(db, { limit: 100 });
    expect(listed.map((p) => p.enrollment_id).sort()).toEqual(expected.map((e) => e.id).sort());
    // The demo student's intermediate rigging: failed written, then a practical in progress.
    expect(listed.some((p) => p.student.full_name === "Jordan Mitchell" && p.latest_status === "in_progress")).toBe(true);
  });

  it("the kept count of enrolments waiting on their assessor follows every change that moves one in or out", async () => {
    const count = async () => (await pendingByHand()).length;
    expect(await countPendingAssessments(db)).toBe(await count());
    const learner = await makeUser(db);
    const course = await makeCourse(db);
    const other = await makeCourse(db);
    const { id } = await makeEnrollment(db, learner.id, course.id, { status: "in_progress", progress: 10 });
    const { id: second } = await makeEnrollment(db, learner.id, other.id, { status: "enrolled" });
    expect(await countPendingAssessments(db)).toBe(await count());
    const courseOf = { [id]: course.id, [second]: other.id };
    const assess = (enrollmentId: string, status: AssessmentStatus, day: string) =>
      db
        .insertInto("assessments")
        .values({
          id: crypto.randomUUID(),
          enrollment_id: enrollmentId,
          student_id: learner.id,
          course_id: courseOf[enrollmentId]!,
          assessment_type: "practical",
          status,
          score: null,
          max_score: null,
          assessment_date: day,
          feedback: null,
          assessed_by: null,
          created_at: new Date().toISOString(),
        })
        .execute();
    for (const [enrollmentId, status, day] of [
      [id, "failed", "2026-11-02"],
      [second, "resubmission", "2026-11-03"],
      [id, "in_progress", "2026-11-04"],
      [second, "passed", "2026-11-05"],
    ] as const) {
      await assess(enrollmentId, status, day);
      expect(await countPendingAssessments(db), `${status} on ${day}`).toBe(await count());
    }
    await db.updateTable("enrollments").set({ status: "withdrawn" }).where("id", "=", id).execute();
    expect(await countPendingAssessments(db)).toBe(await count());
    await db.updateTable("enrollments").set({ status: "in_progress" }).where("id", "=", id).execute();
    expect(await countPendingAssessments(db)).toBe(await count());
    // a learner made inactive drops out of the figure without touching the kept count
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", learner.id).execute();
    expect(await countPendingAssessments(db)).toBe(await count());
    await db.updateTable("users").set({ is_active: 1 }).where("id", "=", learner.id).execute();
    await db.deleteFrom("assessments").where("enrollment_id", "in", [id, second]).execute();
    await db.deleteFrom("enrollments").where("id", "in", [id, second]).execute();
    expect(await countPendingAssessments(db)).toBe(await count());
  });
});
