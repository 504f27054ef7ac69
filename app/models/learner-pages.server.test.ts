import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { publicCoursePage } from "./catalogue.server";
import { cancelClass, classesOfStudent, createClass } from "./class.server";
import { createEnrollment, updateEnrollmentProgress } from "./enrollment.server";
import { joinWaitlist, waitlistForStudent } from "./waitlist.server";

/**
 * What a learner reads before and after enrolling: a course's public page (classes, sessions,
 * seats, never who teaches), their waitlist offers ahead of places still waiting, and the
 * sessions of the class each enrolment holds.
 */
let db: DB;
let cleanup: () => Promise<void>;
let trainer: string;
const NOW = new Date("2026-11-20T00:00:00Z");
const TWO_DAYS = [
  { date: "2026-12-07", starts_at: "07:30", ends_at: "15:30" },
  { date: "2026-12-08", starts_at: "08:00", ends_at: "12:00" },
];

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  trainer = (await makeUser(db, { role: "trainer", full_name: "Terry Trainer" })).id;
});
afterAll(() => cleanup());

const classOf = (courseId: string, start: string, sessions = [{ date: start, starts_at: "07:30", ends_at: "15:30" }], seats = 4) =>
  createClass(db, courseId, { start_date: start, end_date: sessions.at(-1)!.date, sessions, trainer_id: trainer, seats }, trainer, NOW);

describe("a course's public page", () => {
  it("lists the coming classes with their sessions and seats, soonest first, and not who teaches them", async () => {
    const course = await makeCourse(db, { name: "Basic Rigging" });
    const later = await classOf(course.id, "2027-01-11");
    const sooner = await classOf(course.id, "2026-12-07", TWO_DAYS, 2);
    const cancelled = await classOf(course.id, "2026-12-14");
    await cancelClass(db, cancelled.id, trainer, NOW);
    const learner = await makeUser(db);
    await createEnrollment(db, { studentId: learner.id, courseId: course.id, classId: sooner.id, now: NOW });

    const page = await publicCoursePage(db, course.id, NOW);
    expect(page?.course.name).toBe("Basic Rigging");
    expect(page?.classes.map((c) => c.id)).toEqual([sooner.id, later.id]);
    expect(page?.classes[0]).toMatchObject({ id: sooner.id, start_date: "2026-12-07", end_date: "2026-12-08", seats_left: 1, sessions: TWO_DAYS });
    expect(Object.keys(page!.classes[0]!).sort()).toEqual(["end_date", "id", "location", "seats_left", "sessions", "start_date"]);
    expect(JSON.stringify(page)).not.toContain("Terry Trainer");
    expect(JSON.stringify(page)).not.toContain(trainer);
  });

  it("is null for a course that is closed to enrolment or unknown", async () => {
    const closed = await makeCourse(db, { is_active: false });
    expect(await publicCoursePage(db, closed.id, NOW)).toBeNull();
    expect(await publicCoursePage(db, "no-such-course", NOW)).toBeNull();
  });
});

describe("a learner's waitlists", () => {
  it("lead with a seat held for them, with its expiry and the class's dates", async () => {
    const waitingCourse = await makeCourse(db);
    const soonFull = await classOf(waitingCourse.id, "2026-12-01", undefined, 1);
    const offeredCourse = await makeCourse(db);
    const offeredClass = await classOf(offeredCourse.id, "2026-12-07", TWO_DAYS, 1);
    const [holder, other, learner] = await Promise.all([makeUser(db), makeUser(db), makeUser(db)]);
    await createEnrollment(db, { studentId: other.id, courseId: waitingCourse.id, classId: soonFull.id, now: NOW });
    const held = await createEnrollment(db, { studentId: holder.id, courseId: offeredCourse.id, classId: offeredClass.id, now: NOW });
    await joinWaitlist(db, { classId: soonFull.id, studentId: learner.id, now: NOW });
    await joinWaitlist(db, { classId: offeredClass.id, studentId: learner.id, now: NOW });
    await updateEnrollmentProgress(db, { enrollmentId: held.id, progress: 0, status: "withdrawn", actorId: trainer, now: NOW });

    const entries = await waitlistForStudent(db, learner.id, NOW);
    // the offered class starts later, yet comes first
    expect(entries.map((e) => [e.class_id, e.status])).toEqual([
      [offeredClass.id, "offered"],
      [soonFull.id, "waiting"],
    ]);
    expect(entries[0]).toMatchObject({ course_id: offeredCourse.id, start_date: "2026-12-07", end_date: "2026-12-08", place: null });
    expect(new Date(entries[0]!.offer_expires_at!).getTime()).toBeGreaterThan(NOW.getTime());
    expect(entries[1]).toMatchObject({ place: 1, offer_expires_at: null });
  });
});

describe("a learner's course cards", () => {
  it("show the sessions of the class each enrolment holds, in order", async () => {
    const course = await makeCourse(db);
    // sessions typed out of order come back in order
    const cls = await createClass(
      db,
      course.id,
      { start_date: "2026-12-07", end_date: "2026-12-08", sessions: [...TWO_DAYS].reverse(), trainer_id: trainer, seats: 4 },
      trainer,
      NOW,
    );
    const learner = await makeUser(db);
    const enrollment = await createEnrollment(db, { studentId: learner.id, courseId: course.id, classId: cls.id, now: NOW });
    const cards = await classesOfStudent(db, learner.id);
    expect(cards[enrollment.id]).toMatchObject({ class_id: cls.id, start_date: "2026-12-07", end_date: "2026-12-08", cancelled: false, sessions: TWO_DAYS });
    expect(await classesOfStudent(db, (await makeUser(db)).id)).toEqual({});
  });
});
