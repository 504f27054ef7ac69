import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "./connection";
import { createTestDb } from "../tests/support/test-db";
import { up } from "../migrations/2026-12-04T1402_attendance_notices";
import { countUnreadNotifications, markNotificationsRead } from "../app/models/notification.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb({ seed: true })));
afterAll(() => cleanup());

describe("migration 2026-12-04T1402 (attendance notices)", () => {
  it("folds the per-mark notifications into one a day, dated at the day's last mark, so what was read stays read", async () => {
    const demo = await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    const marks = await db
      .selectFrom("attendance as a")
      .innerJoin("enrollments as e", "e.id", "a.enrollment_id")
      .innerJoin("class_sessions as s", "s.id", "a.session_id")
      .select(["a.enrollment_id", "a.marked_at", "a.marked_by", "s.session_date"])
      .where("e.student_id", "=", demo.id)
      .orderBy("a.marked_at")
      .execute();
    expect(marks.length).toBeGreaterThan(5);
    // the data as it was: one event per mark (one mark twice, as a changed mark made), filed under the enrolment
    await db.deleteFrom("events").where("type", "=", "attendance.day").execute();
    for (const m of [...marks, marks[0]!]) {
      await db
        .insertInto("events")
        .values({
          id: crypto.randomUUID(),
          actor_id: m.marked_by,
          subject_user_id: demo.id,
          type: "attendance.marked",
          entity_type: "enrollment",
          entity_id: m.enrollment_id,
          message: `Course: present on ${m.session_date}`,
          created_at: m.marked_at,
        })
        .execute();
    }
    await markNotificationsRead(db, demo.id, new Date(marks.at(-2)!.marked_at));
    const unreadBefore = await countUnreadNotifications(db, demo.id);

    await up(db);

    expect(await db.selectFrom("events").select("id").where("type", "=", "attendance.marked").execute()).toHaveLength(0);
    const notes = await db
      .selectFrom("events")
      .select(["entity_type", "entity_id", "message", "created_at"])
      .where("type", "=", "attendance.day")
      .where("subject_user_id", "=", demo.id)
      .execute();
    expect(notes).toHaveLength(new Set(marks.map((m) => m.session_date)).size);
    for (const n of notes) {
      expect(n.entity_type).toBe("attendance");
      expect(n.message).toMatch(/^Attendance on \d{1,2} [A-Z][a-z]{2} \d{4}: .+, (present|absent|late)\.$/);
    }
    expect(await countUnreadNotifications(db, demo.id)).toBeLessThanOrEqual(unreadBefore);
    expect(await countUnreadNotifications(db, demo.id)).toBeGreaterThan(0);
  });
});
