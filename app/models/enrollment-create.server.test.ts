import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { DomainError } from "~/utils/errors";
import { enrollmentFormSchema, enrollmentPayloadSchema, TERMS_REQUIRED } from "~/schemas/enrollment";
import { parseWith } from "~/utils/validation";
import { ALREADY_ENROLLED, createEnrollment, isEnrolled, updateEnrollmentProgress } from "./enrollment.server";
import { recordAssessment } from "./assessment.server";
import { issueCertificate } from "./certificates/certificate-issue.server";

let db: DB;
let cleanup: () => Promise<void>;
let activeCourse: string;
let inactiveCourse: string;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  activeCourse = (await makeCourse(db, { name: "Dogging" })).id;
  inactiveCourse = (await makeCourse(db, { name: "Retired course", is_active: false })).id;
});
afterAll(() => cleanup());

async function rows(studentId: string, courseId?: string) {
  let q = db.selectFrom("enrollments").selectAll().where("student_id", "=", studentId);
  if (courseId) q = q.where("course_id", "=", courseId);
  return q.execute();
}

async function expectDomainError(promise: Promise<unknown>, status: number, message: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).status).toBe(status);
  expect((error as DomainError).message).toBe(message);
}

describe("createEnrollment", () => {
  it("enrols in an active course: status enrolled, progress 0, with an audit event", async () => {
    const student = await makeUser(db);
    const now = new Date("2026-11-22T01:02:03.000Z");
    const enrollment = await createEnrollment(db, { studentId: student.id, courseId: activeCourse, actorId: student.id, now });
    expect(enrollment).toMatchObject({ course_id: activeCourse, status: "enrolled", progress_percentage: 0, enrollment_date: now.toISOString() });
    const [row] = await rows(student.id);
    expect(row).toMatchObject({ id: enrollment.id, status: "enrolled", progress_percentage: 0, completion_date: null });
    const events = await db.selectFrom("events").selectAll().where("entity_id", "=", enrollment.id).execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "enrollment.created", subject_user_id: student.id, actor_id: student.id });
    expect(events[0]!.message).toContain("Dogging");
    expect(await isEnrolled(db, student.id, activeCourse)).toBe(true);
  });

  it("refuses a second enrollment in the same course with 409 and creates nothing", async () => {
    const student = await makeUser(db);
    await createEnrollment(db, { studentId: student.id, courseId: activeCourse });
    const eventsBefore = await db.selectFrom("events").select("id").where("subject_user_id", "=", student.id).execute();
    await expectDomainError(createEnrollment(db, { studentId: student.id, courseId: activeCourse }), 409, ALREADY_ENROLLED);
    expect(await rows(student.id)).toHaveLength(1);
    const eventsAfter = await db.selectFrom("events").select("id").where("subject_user_id", "=", student.id).execute();
    expect(eventsAfter).toHaveLength(eventsBefore.length);
  });

  it("makes exactly one row when two submissions race", async () => {
    const student = await makeUser(db);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => createEnrollment(db, { studentId: student.id, courseId: activeCourse })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === "rejected")) {
      expect(r.reason).toBeInstanceOf(DomainError);
      expect((r.reason as DomainError).status).toBe(409);
    }
    expect(await rows(student.id)).toHaveLength(1);
  });

  it("turns the UNIQUE constraint into the same 409 if the row appears after the check", async () => {
    const student = await makeUser(db);
    const course = (await makeCourse(db)).id;
    await db
      .insertInto("enrollments")
      .values({
        id: crypto.randomUUID(),
        student_id: student.id,
        course_id: course,
        status: "completed",
        progress_percentage: 100,
        enrollment_date: new Date().toISOString(),
        completion_date: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    await expectDomainError(createEnrollment(db, { studentId: student.id, courseId: course }), 409, ALREADY_ENROLLED);
    expect(await rows(student.id, course)).toHaveLength(1);
  });

  it("refuses an inactive course as 'Course not found'", async () => {
    const student = await makeUser(db);
    await expectDomainError(createEnrollment(db, { studentId: student.id, courseId: inactiveCourse }), 404, "Course not found");
    expect(await rows(student.id)).toHaveLength(0);
  });

  it("refuses an unknown or malformed course id as 'Course not found'", async () => {
    const student = await makeUser(db);
    for (const courseId of [crypto.randomUUID(), "abc", "' or 1=1 --", "ü".repeat(50)]) {
      await expectDomainError(createEnrollment(db, { studentId: student.id, courseId }), 404, "Course not found");
    }
    expect(await rows(student.id)).toHaveLength(0);
  });

  it("lets a student enrol in several different courses", async () => {
    const student = await makeUser(db);
    const other = (await makeCourse(db)).id;
    await createEnrollment(db, { studentId: student.id, courseId: activeCourse });
    await createEnrollment(db, { studentId: student.id, courseId: other });
    expect(await rows(student.id)).toHaveLength(2);
  });
});

describe("enrolment schemas", () => {
  it("the form needs the terms ticked", () => {
    expect(parseWith(enrollmentFormSchema, {})).toMatchObject({ success: false, fieldErrors: { terms: TERMS_REQUIRED } });
    expect(parseWith(enrollmentFormSchema, { terms: "" })).toMatchObject({ success: false });
    expect(parseWith(enrollmentFormSchema, { terms: "on" })).toMatchObject({ success: true, data: { terms: true } });
  });

  it("the /api payload needs a course id of sane length", () => {
    expect(parseWith(enrollmentPayloadSchema, {})).toMatchObject({ success: false, fieldErrors: { course_id: "Course is required" } });
    expect(parseWith(enrollmentPayloadSchema, { course_id: 42 })).toMatchObject({ success: false });
    expect(parseWith(enrollmentPayloadSchema, { course_id: "x".repeat(500) })).toMatchObject({ success: false });
    expect(parseWith(enrollmentPayloadSchema, { course_id: " abc " })).toMatchObject({ success: true, data: { course_id: "abc" } });
  });
});

describe("staff who enrol are learners", () => {
  it("a trainer who enrols gets a student number, once, and cannot assess, progress or certify their own enrolment", async () => {
    const trainer = await makeUser(db, { role: "trainer" });
    const course = await makeCourse(db);
    const other = await makeCourse(db);
    expect((await db.selectFrom("users").select("student_number").where("id", "=", trainer.id).executeTakeFirstOrThrow()).student_number).toBeNull();
    const enrollment = await createEnrollment(db, { studentId: trainer.id, courseId: course.id });
    const { student_number } = await db.selectFrom("users").select("student_number").where("id", "=", trainer.id).executeTakeFirstOrThrow();
    expect(student_number).toMatch(/^S\d{6}$/);
    await createEnrollment(db, { studentId: trainer.id, courseId: other.id });
    expect((await db.selectFrom("users").select("student_number").where("id", "=", trainer.id).executeTakeFirstOrThrow()).student_number).toBe(student_number);

    const mine = { enrollmentId: enrollment.id, actorId: trainer.id };
    await expect(
      recordAssessment(db, {
        enrollment_id: enrollment.id,
        actorId: trainer.id,
        assessment_type: "Practical",
        status: "passed",
        score: 90,
        max_score: 100,
        assessment_date: enrollment.enrollment_date.slice(0, 10),
        feedback: null,
      }),
    ).rejects.toBeInstanceOf(DomainError);
    await expect(updateEnrollmentProgress(db, { ...mine, progress: 100, status: "completed" })).rejects.toBeInstanceOf(DomainError);
    await expect(issueCertificate(db, mine)).rejects.toBeInstanceOf(DomainError);
    const row = await db.selectFrom("enrollments").select(["status", "progress_percentage"]).where("id", "=", enrollment.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "enrolled", progress_percentage: 0 });
    expect(await db.selectFrom("certificates").select("id").where("enrollment_id", "=", enrollment.id).execute()).toEqual([]);
    expect(await db.selectFrom("assessments").select("id").where("enrollment_id", "=", enrollment.id).execute()).toEqual([]);
  });
});
