import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeCourse } from "../../tests/support/factories";
import { getCourse, listCourses } from "./course.server";

/** The public catalogue's query: active courses only, search and tier filter done in SQL. */
let db: DB;
let cleanup: () => Promise<void>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  ids.dogging = (await makeCourse(db, { name: "Dogging Licence", tier: "tier_1", unit_code: "CPCCLDG3001" })).id;
  ids.slewing = (await makeCourse(db, { name: "Slewing Crane 20t", tier: "tier_2", unit_code: "TLILIC0041" })).id;
  ids.tower = (await makeCourse(db, { name: "Tower Crane", tier: "tier_3", unit_code: "TLILIC0043" })).id;
  ids.closed = (await makeCourse(db, { name: "Closed Crane Course", tier: "tier_2", is_active: false })).id;
  ids.percent = (await makeCourse(db, { name: "Rigging 100% Safe", tier: "tier_1", unit_code: "X_Y" })).id;
});
afterAll(() => cleanup());

const names = (courses: { name: string }[]) => courses.map((c) => c.name);

describe("listCourses for the public catalogue", () => {
  it("lists only active courses, by tier then name", async () => {
    const courses = await listCourses(db, { activeOnly: true });
    expect(names(courses)).toEqual(["Dogging Licence", "Rigging 100% Safe", "Slewing Crane 20t", "Tower Crane"]);
    expect(courses.every((c) => c.is_active)).toBe(true);
  });

  it("filters by tier", async () => {
    expect(names(await listCourses(db, { activeOnly: true, tier: "tier_2" }))).toEqual(["Slewing Crane 20t"]);
    expect(names(await listCourses(db, { activeOnly: true, tier: "tier_3" }))).toEqual(["Tower Crane"]);
  });

  it("searches name, description and unit code without regard to case", async () => {
    expect(names(await listCourses(db, { activeOnly: true, search: "CRANE" }))).toEqual(["Slewing Crane 20t", "Tower Crane"]);
    expect(names(await listCourses(db, { activeOnly: true, search: "tlilic0043" }))).toEqual(["Tower Crane"]);
    expect(names(await listCourses(db, { activeOnly: true, search: "  dogging  " }))).toEqual(["Dogging Licence"]);
    expect(await listCourses(db, { activeOnly: true, search: "a test course" })).toHaveLength(4);
  });

  it("combines search and tier, and never shows an inactive match", async () => {
    expect(names(await listCourses(db, { activeOnly: true, search: "crane", tier: "tier_3" }))).toEqual(["Tower Crane"]);
    expect(await listCourses(db, { activeOnly: true, search: "closed" })).toEqual([]);
  });

  it("treats LIKE wildcards and quotes in a search as plain text", async () => {
    expect(names(await listCourses(db, { activeOnly: true, search: "100%" }))).toEqual(["Rigging 100% Safe"]);
    expect(await listCourses(db, { activeOnly: true, search: "%" })).toHaveLength(1);
    expect(names(await listCourses(db, { activeOnly: true, search: "x_y" }))).toEqual(["Rigging 100% Safe"]);
    expect(await listCourses(db, { activeOnly: true, search: "_" })).toHaveLength(1);
    expect(await listCourses(db, { activeOnly: true, search: "'; drop table courses; --" })).toEqual([]);
    expect(await listCourses(db, { activeOnly: true })).toHaveLength(4);
  });

  it("returns nothing, not an error, when nothing matches", async () => {
    expect(await listCourses(db, { activeOnly: true, search: "submarine" })).toEqual([]);
  });

  it("gives prices in dollars and lists as arrays", async () => {
    const [course] = await listCourses(db, { activeOnly: true, search: "dogging" });
    expect(course).toMatchObject({ price: 1200, duration_hours: 40, learning_outcomes: ["Outcome one"], prerequisites: [] });
  });

  it("getCourse hides an inactive course from the enrolment page", async () => {
    expect(await getCourse(db, ids.closed!, { activeOnly: true })).toBeNull();
    expect(await getCourse(db, ids.closed!)).not.toBeNull();
    expect(await getCourse(db, "not-a-uuid", { activeOnly: true })).toBeNull();
  });
});
