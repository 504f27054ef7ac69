import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "#db/connection";
import { createTestDb, TEST_DIALECT } from "../../tests/support/test-db";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { DomainError } from "~/utils/errors";
import { ALL_CLASSES_FULL, CLASS_FULL } from "~/schemas/class-text";
import { createEnrollment, updateEnrollmentProgress } from "./enrollment.server";
import { createClass, listUpcomingClasses, nextClassesByCourse } from "./class.server";

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
let trainer: string;
const NOW = new Date("2026-11-20T00:00:00Z");

beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
  trainer = (await makeUser(db, { role: "trainer" })).id;
});
afterAll(() => cleanup());

async function classOf(courseId: string, seats: number, start = "2026-12-07") {
  return createClass(
    db,
    courseId,
    { start_date: start, end_date: start, sessions: [{ date: start, starts_at: "07:30", ends_at: "15:30" }], trainer_id: trainer, seats },
    trainer,
    NOW,
  );
}

function reasons(results: PromiseSettledResult<unknown>[]) {
  return results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as DomainError);
}

describe("seats are taken exactly once", () => {
  it("20 simultaneous enrolments into 5 seats, over several connections, give exactly 5", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 5);
    const students = await Promise.all(Array.from({ length: 20 }, () => makeUser(db)));
    // PostgreSQL: separate pools, as separate workers and servers have. SQLite: one process holds
    // one connection (better-sqlite3 blocks its thread while it waits for the file's write lock,
    // so two in one process would wait on each other); other processes are scripts/workers-test.ts's case.
    const connections = TEST_DIALECT === "postgres" ? Array.from({ length: 4 }, () => openDatabase(url)) : [db];
    try {
      const results = await Promise.allSettled(
        students.map((s, i) => createEnrollment(connections[i % connections.length]!, { studentId: s.id, courseId: course.id, classId: cls.id, now: NOW })),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
      for (const reason of reasons(results)) {
        expect(reason).toBeInstanceOf(DomainError);
        expect(reason.status).toBe(409);
        expect(reason.message).toBe(CLASS_FULL);
      }
    } finally {
      if (TEST_DIALECT === "postgres") await Promise.all(connections.map((c) => c.destroy()));
    }
    const held = await db.selectFrom("enrollments").select("id").where("class_id", "=", cls.id).execute();
    expect(held).toHaveLength(5);
    expect((await listUpcomingClasses(db, course.id, NOW))[0]!.seats_left).toBe(0);
  });

  it("without a class chosen books the next class with a free seat, then 409 when all are full", async () => {
    const course = await makeCourse(db);
    const first = await classOf(course.id, 1, "2026-12-01");
    const second = await classOf(course.id, 1, "2026-12-08");
    const [a, b, c] = await Promise.all([makeUser(db), makeUser(db), makeUser(db)]);
    expect((await createEnrollment(db, { studentId: a.id, courseId: course.id, now: NOW })).class_id).toBe(first.id);
    expect((await createEnrollment(db, { studentId: b.id, courseId: course.id, now: NOW })).class_id).toBe(second.id);
    const error = await createEnrollment(db, { studentId: c.id, courseId: course.id, now: NOW }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(409);
    expect((error as DomainError).message).toBe(ALL_CLASSES_FULL);
  });

  it("gives the enrolment its class's dates as planned dates and its location", async () => {
    const course = await makeCourse(db);
    const cls = await createClass(
      db,
      course.id,
      {
        start_date: "2026-12-14",
        end_date: "2026-12-16",
        sessions: [
          { date: "2026-12-14", starts_at: "07:00", ends_at: "15:00" },
          { date: "2026-12-16", starts_at: "07:00", ends_at: "12:00" },
        ],
        trainer_id: trainer,
        seats: 3,
      },
      trainer,
      NOW,
    );
    const s = await makeUser(db);
    const e = await createEnrollment(db, { studentId: s.id, courseId: course.id, classId: cls.id, now: NOW });
    const row = await db
      .selectFrom("enrollments")
      .select(["planned_start_date", "planned_end_date", "class_id"])
      .where("id", "=", e.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ planned_start_date: "2026-12-14", planned_end_date: "2026-12-16", class_id: cls.id });
  });

  it("withdrawing frees the seat", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 1);
    const [a, b] = await Promise.all([makeUser(db), makeUser(db)]);
    const held = await createEnrollment(db, { studentId: a.id, courseId: course.id, classId: cls.id, now: NOW });
    await expect(createEnrollment(db, { studentId: b.id, courseId: course.id, classId: cls.id, now: NOW })).rejects.toThrow(CLASS_FULL);
    await updateEnrollmentProgress(db, { enrollmentId: held.id, progress: 0, status: "withdrawn", actorId: trainer, now: NOW });
    expect((await createEnrollment(db, { studentId: b.id, courseId: course.id, classId: cls.id, now: NOW })).class_id).toBe(cls.id);
  });

  it("a withdrawn learner is reopened only while the class has a seat", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 1);
    const [a, b] = await Promise.all([makeUser(db), makeUser(db)]);
    const first = await createEnrollment(db, { studentId: a.id, courseId: course.id, classId: cls.id, now: NOW });
    await updateEnrollmentProgress(db, { enrollmentId: first.id, progress: 0, status: "withdrawn", actorId: trainer, now: NOW });
    await createEnrollment(db, { studentId: b.id, courseId: course.id, classId: cls.id, now: NOW });
    await expect(
      updateEnrollmentProgress(db, { enrollmentId: first.id, progress: 10, status: "in_progress", reopen: true, actorId: trainer, now: NOW }),
    ).rejects.toThrow(CLASS_FULL);
  });

  it("a course without upcoming classes enrols as before, with no class", async () => {
    const course = await makeCourse(db);
    const s = await makeUser(db);
    expect((await createEnrollment(db, { studentId: s.id, courseId: course.id, now: NOW })).class_id).toBeNull();
  });

  it("the catalogue reads the next classes of every course in one query, seats left counted", async () => {
    const course = await makeCourse(db);
    for (const d of ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04"]) await classOf(course.id, 2, d);
    const s = await makeUser(db);
    await createEnrollment(db, { studentId: s.id, courseId: course.id, now: NOW });
    const next = (await nextClassesByCourse(db, NOW))[course.id]!;
    expect(next.map((c) => c.start_date)).toEqual(["2026-12-01", "2026-12-02", "2026-12-03"]);
    expect(next.map((c) => c.seats_left)).toEqual([1, 2, 2]);
  });
});
