import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../../tests/support/test-db";
import type { DB } from "#db/connection";
import { organisationToday, weekdayOf } from "~/utils/organisation-calendar";
import { listUpcomingClasses } from "~/models/class.server";
import { attendanceForStudent } from "~/models/attendance.server";
import { countUnreadNotifications } from "~/models/notification.server";
import { publicHolidays } from "~/models/hrw/hrw-calendar.server";
import { seedDemoData } from "./seed.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb({ seed: true })));
afterAll(() => cleanup());

describe("demo classes", () => {
  it("are past, running and upcoming, each enrolment's planned dates its class's", async () => {
    const today = organisationToday();
    const classes = await db.selectFrom("classes").selectAll().execute();
    expect(classes.some((c) => c.end_date < today)).toBe(true);
    expect(classes.some((c) => c.start_date <= today && c.end_date >= today)).toBe(true);
    expect(classes.filter((c) => c.start_date > today).length).toBeGreaterThanOrEqual(8);
    const held = await db
      .selectFrom("enrollments")
      .innerJoin("classes", "classes.id", "enrollments.class_id")
      .select(["enrollments.planned_start_date", "enrollments.planned_end_date", "classes.start_date", "classes.end_date"])
      .execute();
    expect(held.length).toBeGreaterThanOrEqual(3);
    for (const h of held) expect([h.planned_start_date, h.planned_end_date]).toEqual([h.start_date, h.end_date]);
  });

  it("have a full class with learners waiting, and a course with classes still has a free one", async () => {
    const waiting = await db.selectFrom("class_waitlist").select(["class_id"]).where("status", "=", "waiting").execute();
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    const tower = await db.selectFrom("classes").select("course_id").where("id", "=", waiting[0]!.class_id).executeTakeFirstOrThrow();
    const upcoming = await listUpcomingClasses(db, tower.course_id);
    expect(upcoming.find((c) => c.id === waiting[0]!.class_id)?.seats_left).toBe(0);
    expect(upcoming.some((c) => c.seats_left > 0)).toBe(true);
  });

  it("give the demo student an attendance history", async () => {
    const demo = await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    const summaries = Object.values(await attendanceForStudent(db, demo.id));
    expect(summaries.some((s) => s.present > 3 && s.late === 1 && s.absent === 1)).toBe(true);
  });

  it("leave the demo student a few unread notifications, their roll one notification a day", async () => {
    const demo = await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    const days = await db
      .selectFrom("attendance as a")
      .innerJoin("class_sessions as s", "s.id", "a.session_id")
      .innerJoin("enrollments as e", "e.id", "a.enrollment_id")
      .select("s.session_date")
      .distinct()
      .where("e.student_id", "=", demo.id)
      .execute();
    const notes = await db
      .selectFrom("events")
      .select(["type", "entity_id"])
      .where("subject_user_id", "=", demo.id)
      .where("entity_type", "=", "attendance")
      .execute();
    expect(notes).toHaveLength(days.length);
    expect(notes.every((n) => n.type === "attendance.day")).toBe(true);
    const unread = await countUnreadNotifications(db, demo.id);
    expect(unread).toBeGreaterThan(0);
    expect(unread).toBeLessThan(10);
  });
});

describe("demo classes around Christmas", () => {
  let december: DB;
  let cleanDecember: () => Promise<void>;
  beforeAll(async () => {
    ({ db: december, cleanup: cleanDecember } = await createTestDb());
    // a demo made a week before Christmas: its running and coming classes span the holidays
    await seedDemoData(december, new Date("2026-12-18T00:00:00Z"));
  }, 120_000);
  afterAll(() => cleanDecember());

  it("hold no session on a public holiday of the yards' state", async () => {
    const sessions = await december.selectFrom("class_sessions").select("session_date").execute();
    const holidays = new Set([...publicHolidays("NSW", 2026), ...publicHolidays("NSW", 2027)]);
    expect(holidays.has("2026-12-25")).toBe(true);
    // the test means something only when some class runs over a weekday holiday
    const classes = await december.selectFrom("classes").select(["start_date", "end_date"]).execute();
    const weekdayHolidays = [...holidays].filter((d) => weekdayOf(d) !== 0 && weekdayOf(d) !== 6);
    expect(weekdayHolidays.filter((d) => classes.some((c) => c.start_date <= d && d <= c.end_date)).length).toBeGreaterThan(0);
    expect(sessions.map((s) => s.session_date).filter((d) => holidays.has(d))).toEqual([]);
  });
});
