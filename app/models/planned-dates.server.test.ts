import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { bodyOf, call, caller } from "../../tests/support/api-calls";
import * as enrollmentApi from "~/routes/api+/enrollments.$id";
import { PLANNED_END_BEFORE_START, plannedDatesSchema } from "~/schemas/enrollment-update";
import { createEnrollment, setPlannedDates } from "./enrollment.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());

describe("planned dates", () => {
  it("an enrolment is planned from its enrolment date for the unit's duration, and staff change it", async () => {
    const course = await makeCourse(db, { name: "Dogging" });
    await db.updateTable("courses").set({ duration_hours: 40 }).where("id", "=", course.id).execute();
    const student = await makeUser(db, { role: "student" });
    const admin = await makeUser(db, { role: "admin" });
    const e = await createEnrollment(db, { studentId: student.id, courseId: course.id, now: new Date("2026-03-02T09:00:00Z") });
    const read = () =>
      db.selectFrom("enrollments").select(["planned_start_date", "planned_end_date", "updated_at"]).where("id", "=", e.id).executeTakeFirstOrThrow();
    expect(await read()).toMatchObject({ planned_start_date: "2026-03-02", planned_end_date: "2026-03-07" });
    const before = (await read()).updated_at;
    expect(await setPlannedDates(db, { enrollmentId: e.id, start: "2026-11-30", end: "2027-02-12", actorId: admin.id })).toEqual({ changed: true });
    // updated_at stays: a withdrawn enrolment's last change is its withdrawal date
    expect(await read()).toEqual({ planned_start_date: "2026-11-30", planned_end_date: "2027-02-12", updated_at: before });
    expect(await setPlannedDates(db, { enrollmentId: e.id, start: "2026-11-30", end: "2027-02-12", actorId: admin.id })).toEqual({ changed: false });
  });

  it("the schema wants real dates from 1980 to 2099, the end not before the start", () => {
    expect(plannedDatesSchema.safeParse({ planned_start_date: "2026-02-30", planned_end_date: "2026-03-01" }).success).toBe(false);
    expect(plannedDatesSchema.safeParse({ planned_start_date: "1979-12-31", planned_end_date: "2026-03-01" }).success).toBe(false);
    const backwards = plannedDatesSchema.safeParse({ planned_start_date: "2026-03-05", planned_end_date: "2026-03-01" });
    expect(backwards.error?.issues[0]?.message).toBe(PLANNED_END_BEFORE_START);
  });

  it("PUT /api/enrollments/{id} sets them with the same schema, leaving status and progress alone", async () => {
    const course = await makeCourse(db, { name: "Rigging" });
    const student = await makeUser(db, { role: "student" });
    const e = await createEnrollment(db, { studentId: student.id, courseId: course.id });
    const trainer = await caller(db, "trainer");
    const put = (body: unknown) => call(enrollmentApi, "PUT", `/api/enrollments/${e.id}`, { token: trainer.token, json: body, params: { id: e.id } });
    const ok = await put({ planned_start_date: "2026-12-01", planned_end_date: "2027-01-15" });
    expect(ok.status).toBe(200);
    expect(await bodyOf(ok)).toMatchObject({ status: "enrolled", progress_percentage: 0, planned_start_date: "2026-12-01", planned_end_date: "2027-01-15" });
    const bad = await put({ planned_start_date: "2027-01-15", planned_end_date: "2026-12-01" });
    expect(bad.status).toBe(422);
    expect((await bodyOf(bad)).errors).toEqual({ planned_end_date: PLANNED_END_BEFORE_START });
    expect((await put({ planned_start_date: "soon" })).status).toBe(422);
    const row = await db.selectFrom("enrollments").select(["planned_start_date", "planned_end_date"]).where("id", "=", e.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ planned_start_date: "2026-12-01", planned_end_date: "2027-01-15" });
  });
});
