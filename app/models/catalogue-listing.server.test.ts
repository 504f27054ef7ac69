import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { cataloguePage } from "./catalogue.server";
import { createClass } from "./class.server";
import { createEnrollment } from "./enrollment.server";

/**
 * The catalogue's page is read once and kept for every visitor until what it shows changes:
 * a write to a course or a seat ends it (on PostgreSQL the change notification arrives a moment
 * after the commit, hence the polls), a write elsewhere keeps it, and time ends it too.
 */
let db: DB;
let cleanup: () => Promise<void>;
let trainer: string;
let courseId: string;
const NOW = new Date("2026-11-20T00:00:00Z");
const FIRST = { q: "", tier: "all" as const, page: 1 };
const seatsLeft = (listing: Awaited<ReturnType<typeof cataloguePage>>) => listing.classes[courseId]![0]!.seats_left;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  trainer = (await makeUser(db, { role: "trainer" })).id;
  courseId = (await makeCourse(db, { name: "Dogging Licence", tier: "tier_1" })).id;
  await createClass(
    db,
    courseId,
    {
      start_date: "2026-12-07",
      end_date: "2026-12-07",
      sessions: [{ date: "2026-12-07", starts_at: "07:30", ends_at: "15:30" }],
      trainer_id: trainer,
      seats: 5,
    },
    trainer,
    NOW,
  );
});
afterAll(() => cleanup());

describe("the catalogue's page", () => {
  it("is read once and kept while nothing it shows changes, whatever else is written", async () => {
    const first = await cataloguePage(db, FIRST, NOW);
    expect(first.list.courses.map((c) => c.name)).toEqual(["Dogging Licence"]);
    expect(seatsLeft(first)).toBe(5);
    expect(await cataloguePage(db, FIRST, new Date(NOW.getTime() + 1_000))).toBe(first);
    // a write the page does not show (a new account) keeps it
    await makeUser(db, { role: "student" });
    await new Promise((r) => setTimeout(r, 300));
    expect(await cataloguePage(db, FIRST, new Date(NOW.getTime() + 2_000))).toBe(first);
  });

  it("shows a seat taken and a course renamed on the next read", async () => {
    const before = await cataloguePage(db, FIRST, NOW);
    const learner = await makeUser(db, { role: "student" });
    const classId = before.classes[courseId]![0]!.id;
    await createEnrollment(db, { studentId: learner.id, courseId, classId, now: NOW });
    await expect.poll(async () => seatsLeft(await cataloguePage(db, FIRST, NOW))).toBe(seatsLeft(before) - 1);
    await db.updateTable("courses").set({ name: "Dogging Licence (DG)" }).where("id", "=", courseId).execute();
    await expect.poll(async () => (await cataloguePage(db, FIRST, NOW)).list.courses[0]!.name).toBe("Dogging Licence (DG)");
  });

  it("is read again after a minute, and a search is read every time", async () => {
    const kept = await cataloguePage(db, FIRST, NOW);
    expect(await cataloguePage(db, FIRST, new Date(NOW.getTime() + 59_000))).toBe(kept);
    expect(await cataloguePage(db, FIRST, new Date(NOW.getTime() + 61_000))).not.toBe(kept);
    const search = { ...FIRST, q: "dogging" };
    const found = await cataloguePage(db, search, NOW);
    expect(found.list.courses).toHaveLength(1);
    expect(await cataloguePage(db, search, NOW)).not.toBe(found);
  });
});
