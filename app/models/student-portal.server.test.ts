import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { createTestDb } from "../../tests/support/test-db";
import { profileSchema } from "~/schemas/profile";
import { parseWith } from "~/utils/validation";
import { countCertificatesForStudent, listCertificatesForStudent } from "./certificates/certificate.server";
import { getStudentEnrollmentCounts, listEnrollmentsForStudent } from "./student-enrollments.server";
import { recordEvent } from "./event.server";
import { countUnreadNotifications, listNotifications, markNotificationsRead } from "./notification.server";
import { getUserById, updateOwnProfile } from "./user.server";

let db: DB;
let cleanup: () => Promise<void>;
let demoId: string;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb({ seed: true }));
  demoId = (await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow()).id;
});
afterAll(() => cleanup());

describe("student dashboard counters", () => {
  it("give the demo student's figures, covering every enrolment state", async () => {
    const counts = await getStudentEnrollmentCounts(db, demoId);
    expect(counts.total).toBeGreaterThanOrEqual(4);
    expect(counts.completed).toBeGreaterThanOrEqual(1);
    expect(counts.in_progress).toBeGreaterThanOrEqual(1);
    expect(await countCertificatesForStudent(db, demoId)).toBeGreaterThanOrEqual(3);
    expect(counts).toEqual({ total: 5, completed: 3, in_progress: 1 });
  });

  it("agree with the lists My Courses and My Certificates show", async () => {
    const [counts, enrollments, certificates, certificateCount] = await Promise.all([
      getStudentEnrollmentCounts(db, demoId),
      listEnrollmentsForStudent(db, demoId),
      listCertificatesForStudent(db, demoId),
      countCertificatesForStudent(db, demoId),
    ]);
    expect(enrollments).toHaveLength(counts.total);
    expect(enrollments.filter((e) => e.status === "completed")).toHaveLength(counts.completed);
    expect(enrollments.filter((e) => e.status === "in_progress")).toHaveLength(counts.in_progress);
    expect(new Set(enrollments.map((e) => e.status))).toEqual(new Set(["enrolled", "in_progress", "completed"]));
    expect(certificates).toHaveLength(certificateCount);
  });

  it("are all zero for a student with nothing yet", async () => {
    const { id } = await makeUser(db);
    expect(await getStudentEnrollmentCounts(db, id)).toEqual({ total: 0, completed: 0, in_progress: 0 });
    expect(await countCertificatesForStudent(db, id)).toBe(0);
    expect(await listEnrollmentsForStudent(db, id)).toEqual([]);
    expect(await listCertificatesForStudent(db, id)).toEqual([]);
  });

  it("count only the student's own rows, withdrawn ones in the total alone", async () => {
    const { id } = await makeUser(db);
    const other = await makeUser(db);
    const courses = await Promise.all([makeCourse(db), makeCourse(db), makeCourse(db), makeCourse(db)]);
    await makeEnrollment(db, id, courses[0]!.id, { status: "completed", progress: 100 });
    await makeEnrollment(db, id, courses[1]!.id, { status: "in_progress", progress: 40 });
    await makeEnrollment(db, id, courses[2]!.id, { status: "withdrawn", progress: 10 });
    await makeEnrollment(db, other.id, courses[3]!.id, { status: "in_progress", progress: 50 });
    expect(await getStudentEnrollmentCounts(db, id)).toEqual({ total: 3, completed: 1, in_progress: 1 });
  });
});

describe("student lists", () => {
  it("carry what My Courses shows: course name, tier, hours, price in dollars, description", async () => {
    const [first] = await listEnrollmentsForStudent(db, demoId, { limit: 1 });
    expect(first).toMatchObject({
      status: expect.any(String),
      progress_percentage: expect.any(Number),
      enrollment_date: expect.any(String),
      course: {
        name: expect.any(String),
        tier: expect.stringMatching(/^tier_[123]$/),
        duration_hours: expect.any(Number),
        price: expect.any(Number),
        description: expect.any(String),
      },
    });
  });

  it("are newest first and honour the dashboard limits", async () => {
    const enrollments = await listEnrollmentsForStudent(db, demoId);
    const dates = enrollments.map((e) => e.enrollment_date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(await listEnrollmentsForStudent(db, demoId, { limit: 3 })).toEqual(enrollments.slice(0, 3));
    const certificates = await listCertificatesForStudent(db, demoId, { limit: 2 });
    expect(certificates).toHaveLength(2);
    expect(certificates[0]!.certificate_number).toMatch(/\S/);
  });
});

describe("updateOwnProfile", () => {
  it("changes the contact details only, and records the change in the audit trail, not as a notification to the student", async () => {
    const { id } = await makeUser(db, { full_name: "Pat Example" });
    const before = (await getUserById(db, id))!;
    const updated = await updateOwnProfile(db, id, { phone: "0400 555 666", address: "1 Crane St, Perth WA", emergency_contact: "Lee, 0400 111 000" });
    expect(updated).toMatchObject({ phone: "0400 555 666", address: "1 Crane St, Perth WA", emergency_contact: "Lee, 0400 111 000" });
    expect(updated).toMatchObject({ full_name: before.full_name, email: before.email, role: "student" });
    // one's own edit is no news to oneself: nothing joins the notifications
    expect(await listNotifications(db, id)).toEqual([]);
    const audit = await db.selectFrom("audit_log").select(["action", "fields"]).where("subject_user_id", "=", id).execute();
    expect(audit).toContainEqual({ action: "student.edited", fields: "address,emergency_contact,phone" });
  });

  it("clears a field given as blank (stored as null, shown as Not provided)", async () => {
    const { id } = await makeUser(db);
    const parsed = parseWith(profileSchema, { phone: "  ", address: "", emergency_contact: "" });
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    const updated = await updateOwnProfile(db, id, parsed.data);
    expect(updated).toMatchObject({ phone: null, address: null, emergency_contact: null });
  });

  it("refuses an unknown user with a 404 and writes nothing", async () => {
    const before = await db
      .selectFrom("events")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    await expect(updateOwnProfile(db, crypto.randomUUID(), { phone: null, address: null, emergency_contact: null })).rejects.toMatchObject({
      status: 404,
    });
    const after = await db
      .selectFrom("events")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

describe("profileSchema", () => {
  it("names each bad field", () => {
    const parsed = parseWith(profileSchema, { phone: "call me", address: "x".repeat(501), emergency_contact: "y".repeat(201) });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.fieldErrors).toEqual({
      phone: "Enter a valid phone number",
      address: "Address must be at most 500 characters",
      emergency_contact: "Emergency contact must be at most 200 characters",
    });
  });

  it("refuses values of the wrong type rather than storing them", () => {
    const parsed = parseWith(profileSchema, { phone: 12345678, address: ["a"], emergency_contact: {} });
    expect(parsed.success).toBe(false);
  });
});

describe("notifications", () => {
  it("list the events about the student, newest first, unread until marked read", async () => {
    const { id } = await makeUser(db);
    const other = await makeUser(db);
    const at = (iso: string) => ({ actorId: null, entityType: "enrollment", entityId: null, now: iso });
    await recordEvent(db, { ...at("2026-01-01T00:00:00.000Z"), subjectUserId: id, type: "enrollment.created", message: "Enrolled in A" });
    await recordEvent(db, { ...at("2026-02-01T00:00:00.000Z"), subjectUserId: id, type: "enrollment.status", message: "A marked completed" });
    await recordEvent(db, { ...at("2026-02-02T00:00:00.000Z"), subjectUserId: other.id, type: "enrollment.created", message: "Not mine" });

    expect(await countUnreadNotifications(db, id)).toBe(2);
    const listed = await listNotifications(db, id);
    expect(listed.map((n) => [n.message, n.unread])).toEqual([
      ["A marked completed", true],
      ["Enrolled in A", true],
    ]);

    await markNotificationsRead(db, id, new Date("2026-03-01T00:00:00.000Z"));
    expect(await countUnreadNotifications(db, id)).toBe(0);
    expect((await listNotifications(db, id)).every((n) => !n.unread)).toBe(true);
    expect(await countUnreadNotifications(db, other.id)).toBe(1);

    await recordEvent(db, { ...at("2026-03-02T00:00:00.000Z"), subjectUserId: id, type: "certificate.issued", message: "Certificate issued" });
    expect(await countUnreadNotifications(db, id)).toBe(1);
    expect((await listNotifications(db, id))[0]).toMatchObject({ message: "Certificate issued", unread: true });

    // marking read twice keeps one row and moves the mark forward
    await markNotificationsRead(db, id, new Date("2026-03-03T00:00:00.000Z"));
    expect(await countUnreadNotifications(db, id)).toBe(0);
    const rows = await db.selectFrom("notification_reads").selectAll().where("user_id", "=", id).execute();
    expect(rows).toHaveLength(1);
  });

  it("include the demo student's enrolments, their dates, results, progress, completions, certificates and the roll marked in their classes", async () => {
    const types = new Set((await listNotifications(db, demoId, 100)).map((n) => n.type));
    expect(types).toEqual(
      new Set([
        "enrollment.created",
        "enrollment.planned",
        "assessment.recorded",
        "enrollment.status",
        "enrollment.progress",
        "enrollment.completed",
        "certificate.issued",
        "attendance.day",
      ]),
    );
  });
});
