import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { createTestDb } from "../../tests/support/test-db";
import { organisationToday } from "~/utils/organisation-calendar";
import { recordAssessment } from "./assessment.server";
import { listRecentCertificates } from "./certificates/certificate.server";
import { countCompletedAwaitingCertificate, listCompletedAwaitingCertificate } from "./certificates/certificate-due.server";
import { CERTIFICATE_NEEDS_COMPLETION, issueCertificate } from "./certificates/certificate-issue.server";
import { COMPLETION_NEEDS_PASS, ENROLLMENT_COMPLETED_LOCKED, ENROLLMENT_WITHDRAWN_LOCKED, updateEnrollmentProgress } from "./enrollment.server";
import { listCurrentEnrollmentOptions, listTrainerStudents } from "./trainer-students.server";
import { getTrainerStats } from "./stats.server";

const DAY = 864e5;

describe("the enrollment workflow", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  let trainerId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
    trainerId = (await makeUser(db, { role: "trainer" })).id;
    await makeCourse(db, { name: "Intermediate Rigging", tier: "tier_2" });
  });
  afterAll(async () => cleanup());

  async function enrol(status: "enrolled" | "in_progress" | "completed" | "withdrawn" = "enrolled", progress = 0) {
    const student = await makeUser(db, { full_name: "Casey Learner" });
    const course = await makeCourse(db, { name: `Course for ${student.id.slice(0, 4)}`, tier: "tier_3" });
    const e = await makeEnrollment(db, student.id, course.id, {
      status,
      progress,
      enrollment_date: new Date(Date.now() - 20 * DAY).toISOString(),
    });
    return { studentId: student.id, courseId: course.id, enrollmentId: e.id };
  }

  const pass = (enrollmentId: string, status: "passed" | "failed" = "passed") =>
    recordAssessment(db, {
      enrollment_id: enrollmentId,
      assessment_type: "Practical",
      status,
      score: status === "passed" ? 90 : 30,
      max_score: 100,
      assessment_date: organisationToday(),
      feedback: "noted",
      actorId: trainerId,
    });

  const update = (enrollmentId: string, progress: number, status: "enrolled" | "in_progress" | "completed" | "withdrawn", reopen = false) =>
    updateEnrollmentProgress(db, { enrollmentId, progress, status, reopen, actorId: trainerId });

  const certificatesOf = (enrollmentId: string) => db.selectFrom("certificates").selectAll().where("enrollment_id", "=", enrollmentId).execute();

  it("moves progress and status forward and records each change with the actor", async () => {
    const { studentId, enrollmentId } = await enrol();
    const r = await update(enrollmentId, 35, "in_progress");
    expect(r.changed).toBe(true);
    expect(r.enrollment).toMatchObject({ status: "in_progress", progress_percentage: 35, completion_date: null });
    const again = await update(enrollmentId, 35, "in_progress");
    expect(again.changed).toBe(false);
    const events = await db.selectFrom("events").selectAll().where("entity_id", "=", enrollmentId).execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_id: trainerId, subject_user_id: studentId, type: "enrollment.status" });
    expect(events[0]!.message).toContain("status enrolled \u2192 in progress, progress 0% \u2192 35%");
  });

  it("refuses progress out of bounds and 'enrolled' with progress", async () => {
    const { enrollmentId } = await enrol("in_progress", 20);
    await expect(update(enrollmentId, 101, "in_progress")).rejects.toMatchObject({ status: 422 });
    await expect(update(enrollmentId, 12.5, "in_progress")).rejects.toMatchObject({ status: 422 });
    await expect(update(enrollmentId, 20, "enrolled")).rejects.toMatchObject({ status: 422, fieldErrors: { status: expect.any(String) } });
    expect((await update(enrollmentId, 0, "enrolled")).enrollment.status).toBe("enrolled");
    await expect(update(crypto.randomUUID(), 10, "in_progress")).rejects.toMatchObject({ status: 404 });
  });

  it("completes only after a passed assessment, then sets 100%, the date, and issues one certificate", async () => {
    const { studentId, courseId: cId, enrollmentId } = await enrol("in_progress", 60);
    await expect(update(enrollmentId, 60, "completed")).rejects.toMatchObject({ message: COMPLETION_NEEDS_PASS });
    await pass(enrollmentId, "failed");
    await expect(update(enrollmentId, 60, "completed")).rejects.toMatchObject({ message: COMPLETION_NEEDS_PASS });
    expect(await certificatesOf(enrollmentId)).toHaveLength(0);

    await pass(enrollmentId, "passed");
    const done = await update(enrollmentId, 60, "completed");
    expect(done.changed).toBe(true);
    expect(done.enrollment.status).toBe("completed");
    expect(done.enrollment.progress_percentage).toBe(100);
    expect(done.enrollment.completion_date).toBeTruthy();
    expect(done.issuedCertificate?.certificate_number).toMatch(/^SCR-\d{4}-\d{5}$/);

    const certs = await certificatesOf(enrollmentId);
    expect(certs).toHaveLength(1);
    expect(certs[0]).toMatchObject({ student_id: studentId, course_id: cId, tier_achieved: "tier_3", issued_by: trainerId });
    expect(done.enrollment.certificate?.certificate_number).toBe(certs[0]!.certificate_number);

    const notice = await db.selectFrom("events").selectAll().where("subject_user_id", "=", studentId).where("type", "=", "certificate.issued").execute();
    expect(notice).toHaveLength(1);
    expect(notice[0]!.actor_id).toBe(trainerId);
    expect(notice[0]!.message).toContain(certs[0]!.certificate_number);

    // Submitting "completed" again changes nothing and issues nothing.
    const twice = await update(enrollmentId, 100, "completed");
    expect(twice.changed).toBe(false);
    expect(twice.issuedCertificate).toBeNull();
    expect(await certificatesOf(enrollmentId)).toHaveLength(1);
  });

  it("never reopens a completed enrollment", async () => {
    const { enrollmentId } = await enrol("in_progress", 90);
    await pass(enrollmentId);
    await update(enrollmentId, 90, "completed");
    for (const status of ["in_progress", "enrolled", "withdrawn"] as const) {
      await expect(update(enrollmentId, 0, status, true)).rejects.toMatchObject({ status: 409, message: ENROLLMENT_COMPLETED_LOCKED });
    }
    const row = await db.selectFrom("enrollments").selectAll().where("id", "=", enrollmentId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "completed", progress_percentage: 100 });
  });

  it("reopens a withdrawn enrollment only when asked to, and freezes its progress meanwhile", async () => {
    const { enrollmentId } = await enrol("in_progress", 40);
    await update(enrollmentId, 40, "withdrawn");
    await expect(update(enrollmentId, 40, "in_progress")).rejects.toMatchObject({
      status: 409,
      message: ENROLLMENT_WITHDRAWN_LOCKED,
      fieldErrors: { reopen: ENROLLMENT_WITHDRAWN_LOCKED },
    });
    await expect(update(enrollmentId, 55, "withdrawn")).rejects.toMatchObject({ status: 422 });
    const reopened = await update(enrollmentId, 45, "in_progress", true);
    expect(reopened.enrollment).toMatchObject({ status: "in_progress", progress_percentage: 45 });
    const types = await db.selectFrom("events").select("type").where("entity_id", "=", enrollmentId).orderBy("created_at").execute();
    expect(types.map((t) => t.type)).toContain("enrollment.reopened");
  });

  it("two simultaneous completions complete once and certify once", async () => {
    const { enrollmentId } = await enrol("in_progress", 70);
    await pass(enrollmentId);
    const results = await Promise.all([update(enrollmentId, 70, "completed"), update(enrollmentId, 80, "completed")]);
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(results.filter((r) => r.issuedCertificate)).toHaveLength(1);
    expect(await certificatesOf(enrollmentId)).toHaveLength(1);
    const completions = await db.selectFrom("events").select("id").where("entity_id", "=", enrollmentId).where("type", "=", "enrollment.completed").execute();
    expect(completions).toHaveLength(1);
  });

  it("issueCertificate called concurrently issues exactly one certificate with one number", async () => {
    const { studentId, enrollmentId } = await enrol("completed", 100);
    expect((await listCompletedAwaitingCertificate(db)).map((a) => a.enrollment_id)).toContain(enrollmentId);
    const awaitingBefore = await countCompletedAwaitingCertificate(db);
    const sequenceBefore = await db.selectFrom("certificate_sequence").selectAll().execute();

    const results = await Promise.all(Array.from({ length: 5 }, () => issueCertificate(db, { enrollmentId, actorId: trainerId })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.certificate.certificate_number)).size).toBe(1);
    expect(await certificatesOf(enrollmentId)).toHaveLength(1);
    const events = await db.selectFrom("events").select("id").where("subject_user_id", "=", studentId).where("type", "=", "certificate.issued").execute();
    expect(events).toHaveLength(1);
    // Only one number was drawn from the sequence.
    const sequenceAfter = await db.selectFrom("certificate_sequence").selectAll().execute();
    const drawn = (rows: typeof sequenceAfter) => rows.reduce((sum, r) => sum + r.last_value, 0);
    expect(drawn(sequenceAfter) - drawn(sequenceBefore)).toBe(1);

    expect(await countCompletedAwaitingCertificate(db)).toBe(awaitingBefore - 1);
    expect((await listCompletedAwaitingCertificate(db)).map((a) => a.enrollment_id)).not.toContain(enrollmentId);
    const recent = await listRecentCertificates(db, { limit: 50 });
    expect(recent.find((c) => c.enrollment_id === enrollmentId)?.student.full_name).toBe("Casey Learner");

    // Called again later: the same certificate, nothing new.
    const later = await issueCertificate(db, { enrollmentId, actorId: trainerId });
    expect(later.created).toBe(false);
    expect(later.certificate.id).toBe(results[0]!.certificate.id);
  });

  it("refuses to certify an enrollment that is not completed", async () => {
    const { enrollmentId } = await enrol("in_progress", 50);
    await expect(issueCertificate(db, { enrollmentId, actorId: trainerId })).rejects.toMatchObject({
      status: 422,
      message: CERTIFICATE_NEEDS_COMPLETION,
    });
    await expect(issueCertificate(db, { enrollmentId: crypto.randomUUID(), actorId: trainerId })).rejects.toMatchObject({ status: 404 });
    expect(await certificatesOf(enrollmentId)).toHaveLength(0);
  });
});

describe("the trainer's figures and lists", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb({ seed: true }));
  });
  afterAll(async () => cleanup());

  async function expectedMyStudents() {
    const rows = await db
      .selectFrom("users")
      .innerJoin("enrollments", "enrollments.student_id", "users.id")
      .select(["users.id", "users.full_name", "users.is_active", "users.role", "enrollments.status"])
      .execute();
    return new Set(rows.filter((r) => r.role === "student" && r.is_active === 1 && (r.status === "enrolled" || r.status === "in_progress")).map((r) => r.id));
  }

  it("every overview figure matches the database", async () => {
    const stats = await getTrainerStats(db);
    expect(stats.my_students).toBe((await expectedMyStudents()).size);
    const certificates = await db.selectFrom("certificates").select("enrollment_id").execute();
    expect(stats.certificates_issued).toBe(certificates.length);
    const courses = await db.selectFrom("courses").select("is_active").execute();
    expect(stats.active_courses).toBe(courses.filter((c) => c.is_active === 1).length);
    const completed = await db.selectFrom("enrollments").select("id").where("status", "=", "completed").execute();
    const certified = new Set(certificates.map((c) => c.enrollment_id));
    // a unit credited from another RTO's document never gets a certificate here (the demo has one)
    const credited = new Set(
      (await db.selectFrom("recognition_applications").select("enrollment_id").where("outcome_code", "=", "60").execute()).map((r) => r.enrollment_id),
    );
    expect(credited.size).toBeGreaterThan(0);
    expect(stats.awaiting_certificates).toBe(completed.filter((e) => !certified.has(e.id) && !credited.has(e.id)).length);
    expect(stats.my_students).toBeGreaterThan(5);
    expect(stats.awaiting_certificates).toBeGreaterThan(0);
    expect(stats.pending_assessments).toBeGreaterThan(0);
  });

  it("the figures move with the workflow", async () => {
    const trainer = await db.selectFrom("users").select("id").where("email", "=", "trainer@example.com").executeTakeFirstOrThrow();
    const student = await makeUser(db, { full_name: "Aaron Aardvark" });
    const course = await db.selectFrom("courses").select("id").where("is_active", "=", 1).executeTakeFirstOrThrow();
    const before = await getTrainerStats(db);
    const e = await makeEnrollment(db, student.id, course.id, { status: "in_progress", progress: 30 });
    const started = await getTrainerStats(db);
    expect(started.my_students).toBe(before.my_students + 1);
    expect(started.pending_assessments).toBe(before.pending_assessments + 1); // in progress, nothing recorded
    await recordAssessment(db, {
      enrollment_id: e.id,
      assessment_type: "Written",
      status: "passed",
      score: 9,
      max_score: 10,
      assessment_date: organisationToday(),
      feedback: null,
      actorId: trainer.id,
    });
    expect((await getTrainerStats(db)).pending_assessments).toBe(before.pending_assessments);
    await updateEnrollmentProgress(db, { enrollmentId: e.id, progress: 100, status: "completed", actorId: trainer.id });
    const after = await getTrainerStats(db);
    expect(after.my_students).toBe(before.my_students);
    expect(after.certificates_issued).toBe(before.certificates_issued + 1);
    expect(after.awaiting_certificates).toBe(before.awaiting_certificates);
    // the figure is a count kept by triggers: a certificate removed leaves it
    const issued = await db.selectFrom("certificates").select("id").where("enrollment_id", "=", e.id).executeTakeFirstOrThrow();
    await db.deleteFrom("certificates").where("id", "=", issued.id).execute();
    expect((await getTrainerStats(db)).certificates_issued).toBe(before.certificates_issued);
    expect((await getTrainerStats(db)).certificates_issued).toBe(
      Number(
        (
          await db
            .selectFrom("certificates")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
  });

  it("My Students pages by name, with current enrolments, real progress and the last assessment", async () => {
    const expected = await expectedMyStudents();
    const first = await listTrainerStudents(db, { pageSize: 10 });
    expect(first.total).toBe(expected.size);
    expect(first.students).toHaveLength(Math.min(10, expected.size));
    expect(first.students.every((s) => expected.has(s.id))).toBe(true);
    const names = first.students.map((s) => s.full_name.toLowerCase());
    expect([...names].sort()).toEqual(names);
    // paging: pages of 3 walk through every student exactly once, in name order
    const pages = [];
    const pageCount = Math.ceil(expected.size / 3);
    for (let page = 1; page <= pageCount; page++) pages.push(...(await listTrainerStudents(db, { pageSize: 3, page })).students);
    expect(pages.map((s) => s.id).sort()).toEqual([...expected].sort());
    const allNames = pages.map((s) => s.full_name.toLowerCase());
    expect([...allNames].sort()).toEqual(allNames);
    const beyond = await listTrainerStudents(db, { pageSize: 3, page: 999 });
    expect(beyond.page).toBe(pageCount);

    const jordan = (await listTrainerStudents(db, { search: "student@example.com" })).students;
    expect(jordan).toHaveLength(1);
    const ri = jordan[0]!.enrollments.find((e) => e.course.name.includes("intermediate"));
    expect(ri).toMatchObject({ status: "in_progress", progress_percentage: 65, last_assessment: { status: "in_progress", assessment_type: "Practical" } });
    const tower = jordan[0]!.enrollments.find((e) => e.status === "enrolled");
    expect(tower?.last_assessment).toBeNull();
    expect(jordan[0]!.enrollments.every((e) => e.status === "enrolled" || e.status === "in_progress")).toBe(true);

    // search by course name finds students currently taking it; inactive students never show
    const byCourse = await listTrainerStudents(db, { search: "tower crane", pageSize: 100 });
    expect(byCourse.students.map((s) => s.full_name)).toContain("Jordan Mitchell");
    expect((await listTrainerStudents(db, { search: "lucas.martin" })).total).toBe(0);
    expect((await listTrainerStudents(db, { search: "zzz-nobody" })).students).toEqual([]);
  });

  it("the record form offers every current enrolment of an active student", async () => {
    const options = await listCurrentEnrollmentOptions(db);
    const rows = await db
      .selectFrom("enrollments")
      .innerJoin("users", "users.id", "enrollments.student_id")
      .select("enrollments.id")
      .where("users.is_active", "=", 1)
      .where("enrollments.status", "in", ["enrolled", "in_progress"])
      .execute();
    expect(options.map((o) => o.id).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it("the record form lists at most its limit, and a search narrows it to the students found", async () => {
    const all = await listCurrentEnrollmentOptions(db);
    expect(all.length).toBeGreaterThan(2);
    expect(await listCurrentEnrollmentOptions(db, { limit: 2 })).toEqual(all.slice(0, 2));
    const found = await listCurrentEnrollmentOptions(db, { search: "Jordan Mitchell" });
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((o) => o.student_name))).toEqual(new Set(["Jordan Mitchell"]));
    expect(found.map((o) => o.id).sort()).toEqual(
      all
        .filter((o) => o.student_name === "Jordan Mitchell")
        .map((o) => o.id)
        .sort(),
    );
    expect(await listCurrentEnrollmentOptions(db, { search: "zzz-nobody" })).toEqual([]);
  });
});
