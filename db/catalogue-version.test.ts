import crypto from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeCounter } from "./change-feed";
import type { DB } from "./connection";
import { createSession } from "../app/auth/session.server";
import { lookUpVerification } from "../app/models/certificates/certificate-verification.server";
import { makeCourse, makeEnrollment, makeUser } from "../tests/support/factories";
import { createTestDb } from "../tests/support/test-db";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

/** Whether `write` moved the `catalogue` counter (migration 2026-11-26T0821). */
async function moves(write: () => Promise<unknown>): Promise<boolean> {
  const before = await changeCounter(db, "catalogue");
  expect(before).not.toBeNull();
  await write();
  return (await changeCounter(db, "catalogue")) !== before;
}

async function makeClass(courseId: string) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto("classes")
    .values({
      id,
      course_id: courseId,
      start_date: "2099-01-10",
      end_date: "2099-01-12",
      location_id: null,
      trainer_id: null,
      seats: 8,
      cancelled_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id };
}

describe("the catalogue change counter", () => {
  it("moves on writes to the courses, classes, locations, seats and waitlists the catalogue shows", async () => {
    const course = await makeCourse(db);
    expect(await moves(() => makeCourse(db))).toBe(true);
    expect(await moves(() => db.updateTable("courses").set({ price_cents: 99_00 }).where("id", "=", course.id).execute())).toBe(true);
    const cls = await makeClass(course.id);
    expect(await moves(() => makeClass(course.id))).toBe(true);
    expect(await moves(() => db.updateTable("classes").set({ seats: 9 }).where("id", "=", cls.id).execute())).toBe(true);
    const location = crypto.randomUUID();
    const made = new Date().toISOString();
    const yard = {
      id: location,
      identifier: "YARD9",
      name: "Yard nine",
      suburb: "Botany",
      postcode: "2019",
      state: "01",
      country: "1101",
      created_at: made,
      updated_at: made,
    };
    expect(await moves(() => db.insertInto("delivery_locations").values(yard).execute())).toBe(true);
    expect(
      await moves(() =>
        db
          .updateTable("delivery_locations")
          .set({ name: sql`name || ' (moved)'` })
          .where("id", "=", location)
          .execute(),
      ),
    ).toBe(true);

    const student = await makeUser(db);
    const seat = crypto.randomUUID();
    const now = new Date().toISOString();
    const inClass = {
      id: seat,
      student_id: student.id,
      course_id: course.id,
      class_id: cls.id,
      status: "enrolled" as const,
      progress_percentage: 0,
      enrollment_date: now,
      updated_at: now,
    };
    expect(await moves(() => db.insertInto("enrollments").values(inClass).execute())).toBe(true);
    expect(await moves(() => db.updateTable("enrollments").set({ status: "withdrawn" }).where("id", "=", seat).execute())).toBe(true);
    expect(await moves(() => db.deleteFrom("enrollments").where("id", "=", seat).execute())).toBe(true);

    const waiting = await makeUser(db);
    expect(
      await moves(() =>
        db
          .insertInto("class_waitlist")
          .values({
            class_id: cls.id,
            student_id: waiting.id,
            status: "waiting",
            joined_at: now,
            offered_at: null,
            offer_expires_at: null,
            offer_mailed_at: null,
          })
          .execute(),
      ),
    ).toBe(true);
    expect(await moves(() => db.updateTable("class_waitlist").set({ status: "left" }).where("student_id", "=", waiting.id).execute())).toBe(true);
  });

  it("moves on writes to class sessions, which a course's public page shows (migration 2026-11-28T0400)", async () => {
    const cls = await makeClass((await makeCourse(db)).id);
    const session = { id: crypto.randomUUID(), class_id: cls.id, session_date: "2099-01-10", starts_at: "07:30", ends_at: "15:30" };
    expect(await moves(() => db.insertInto("class_sessions").values(session).execute())).toBe(true);
    expect(await moves(() => db.updateTable("class_sessions").set({ starts_at: "08:00" }).where("id", "=", session.id).execute())).toBe(true);
    expect(await moves(() => db.deleteFrom("class_sessions").where("id", "=", session.id).execute())).toBe(true);
  });

  it("stays on writes the catalogue does not show: sign-ins, verify lookups, enrolments outside a class, progress", async () => {
    const course = await makeCourse(db);
    const cls = await makeClass(course.id);
    const student = await makeUser(db);
    expect(await moves(() => createSession(db, student.id))).toBe(false);
    expect(await moves(() => db.updateTable("users").set({ last_login: new Date().toISOString() }).where("id", "=", student.id).execute())).toBe(false);
    expect(await moves(() => lookUpVerification(db, { code: "AAAA", client: "203.0.113.9" }))).toBe(false);
    const outside = await makeEnrollment(db, student.id, course.id);
    const newcomer = await makeUser(db);
    expect(await moves(() => makeEnrollment(db, newcomer.id, course.id))).toBe(false);
    expect(await moves(() => db.updateTable("enrollments").set({ progress_percentage: 40 }).where("id", "=", outside.id).execute())).toBe(false);
    expect(await moves(() => db.updateTable("enrollments").set({ status: "in_progress" }).where("id", "=", outside.id).execute())).toBe(false);

    // an enrolment in a class: its progress, or its status written unchanged, holds no new seat
    const other = await makeUser(db);
    const now = new Date().toISOString();
    const seat = crypto.randomUUID();
    await db
      .insertInto("enrollments")
      .values({
        id: seat,
        student_id: other.id,
        course_id: course.id,
        class_id: cls.id,
        status: "in_progress",
        progress_percentage: 0,
        enrollment_date: now,
        updated_at: now,
      })
      .execute();
    expect(await moves(() => db.updateTable("enrollments").set({ progress_percentage: 60, status: "in_progress" }).where("id", "=", seat).execute())).toBe(
      false,
    );
  });
});
