import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { getDashboardStats, percent } from "./stats.server";
import { countStudying, myStudentsQuery } from "./trainer-students.server";

describe("getDashboardStats", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
  });
  afterAll(() => cleanup());

  it("is all zeros on an empty database", async () => {
    expect(await getDashboardStats(db)).toEqual({
      total_students: 0,
      active_courses: 0,
      completed_courses: 0,
      completion_rate: 0,
      tier_1_completions: 0,
      tier_2_completions: 0,
      tier_3_completions: 0,
      total_enrollments: 0,
      active_enrollments: 0,
    });
  });

  it("matches figures counted by hand", async () => {
    // 4 students (one inactive), 1 trainer and 1 admin who must not count
    const s1 = await makeUser(db);
    const s2 = await makeUser(db);
    const s3 = await makeUser(db);
    await makeUser(db, { is_active: false });
    await makeUser(db, { role: "trainer" });
    await makeUser(db, { role: "admin" });
    // 3 active courses (tier 1, 2, 3) and 1 inactive tier 1
    const t1 = await makeCourse(db, { tier: "tier_1" });
    const t2 = await makeCourse(db, { tier: "tier_2" });
    const t3 = await makeCourse(db, { tier: "tier_3" });
    const closed = await makeCourse(db, { tier: "tier_1", is_active: false });
    // 8 enrolments: completed t1 x2 (+1 in the closed tier 1 course), completed t3 x1,
    // in progress x2, enrolled x1, withdrawn x1
    await makeEnrollment(db, s1.id, t1.id, { status: "completed", progress: 100 });
    await makeEnrollment(db, s2.id, t1.id, { status: "completed", progress: 100 });
    await makeEnrollment(db, s3.id, closed.id, { status: "completed", progress: 100 });
    await makeEnrollment(db, s1.id, t3.id, { status: "completed", progress: 100 });
    await makeEnrollment(db, s1.id, t2.id, { status: "in_progress", progress: 40 });
    await makeEnrollment(db, s2.id, t2.id, { status: "in_progress", progress: 10 });
    await makeEnrollment(db, s3.id, t1.id, { status: "enrolled" });
    await makeEnrollment(db, s2.id, t3.id, { status: "withdrawn" });

    expect(await getDashboardStats(db)).toEqual({
      total_students: 4,
      active_courses: 3,
      completed_courses: 4,
      completion_rate: 50, // 4 of 8
      tier_1_completions: 3,
      tier_2_completions: 0,
      tier_3_completions: 1,
      total_enrollments: 8,
      active_enrollments: 3,
    });
  });
});

describe("percent", () => {
  it("rounds to a whole number and never divides by zero", () => {
    expect(percent(1, 3)).toBe(33);
    expect(percent(2, 3)).toBe(67);
    expect(percent(0, 0)).toBe(0);
    expect(percent(5, 5)).toBe(100);
  });
});

describe("the trainers' student count (studying_count)", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
  });
  afterAll(() => cleanup());

  const counted = async () =>
    Number(
      (
        await myStudentsQuery(db)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("equals the students it stands for through enrolments, withdrawals, deactivation, a role change and deletion", async () => {
    const course = await makeCourse(db);
    const [a, b, c] = [await makeUser(db), await makeUser(db), await makeUser(db)];
    await makeUser(db, { role: "trainer" });
    const expectKept = async (n: number) => {
      expect(await counted()).toBe(n);
      expect(await countStudying(db)).toBe(n);
    };
    await expectKept(0);
    const ea = await makeEnrollment(db, a.id, course.id, { status: "in_progress" });
    await makeEnrollment(db, a.id, (await makeCourse(db)).id, { status: "enrolled" });
    const eb = await makeEnrollment(db, b.id, course.id, { status: "enrolled" });
    await makeEnrollment(db, c.id, course.id, { status: "completed" });
    await expectKept(2);
    // a's second current enrolment keeps a counted; b's withdrawal does not
    await db.updateTable("enrollments").set({ status: "completed" }).where("id", "=", ea.id).execute();
    await db.updateTable("enrollments").set({ status: "withdrawn" }).where("id", "=", eb.id).execute();
    await expectKept(1);
    await db.updateTable("enrollments").set({ status: "in_progress" }).where("id", "=", eb.id).execute();
    await expectKept(2);
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", b.id).execute();
    await expectKept(1);
    await db.updateTable("users").set({ role: "trainer" }).where("id", "=", a.id).execute();
    await expectKept(0);
    await db.updateTable("users").set({ role: "student", is_active: 1 }).where("id", "in", [a.id, b.id]).execute();
    await expectKept(2);
    await db.deleteFrom("enrollments").where("student_id", "=", b.id).execute();
    await expectKept(1);
    await db.deleteFrom("enrollments").where("student_id", "=", a.id).execute();
    await db.deleteFrom("users").where("id", "=", a.id).execute();
    await expectKept(0);
  });
});
