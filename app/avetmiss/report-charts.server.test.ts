import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { TIERS } from "#db/schema";
import { createTestDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { getReportCharts, type ReportCharts } from "./export.server";

/**
 * The reports page's charts read the hourly counts triggers keep (migration 2026-12-05T1500).
 * Every kind of write an enrolment or a course can take is made here, and after each the charts
 * must equal the same figures counted the slow way: each enrolment's month on Sydney's calendar.
 */
const SYDNEY = new Intl.DateTimeFormat("en-AU", { timeZone: "Australia/Sydney", year: "numeric", month: "numeric" });

function sydneyMonth(instant: string): { year: number; month: number } {
  const parts = SYDNEY.formatToParts(new Date(instant));
  return { year: Number(parts.find((p) => p.type === "year")!.value), month: Number(parts.find((p) => p.type === "month")!.value) };
}

async function countedByHand(db: DB, year: number): Promise<ReportCharts> {
  const rows = await db
    .selectFrom("enrollments")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select(["enrollments.enrollment_date", "enrollments.completion_date", "enrollments.status", "courses.tier"])
    .execute();
  const months = Array.from({ length: 12 }, (_, i) => ({ month: i + 1, enrollments: 0, completions: 0 }));
  const byTier = new Map(TIERS.map((tier) => [tier, 0]));
  for (const row of rows) {
    const enrolled = sydneyMonth(row.enrollment_date);
    if (enrolled.year === year) months[enrolled.month - 1]!.enrollments++;
    if (row.status !== "completed" || !row.completion_date) continue;
    const completed = sydneyMonth(row.completion_date);
    if (completed.year !== year) continue;
    months[completed.month - 1]!.completions++;
    byTier.set(row.tier, byTier.get(row.tier)! + 1);
  }
  return { year, months, completionsByTier: TIERS.map((tier) => ({ tier, completions: byTier.get(tier)! })) };
}

describe("the reports page's charts, from the hourly counts", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
  });
  afterAll(() => cleanup());

  const agree = async () => {
    for (const year of [2025, 2026]) expect(await getReportCharts(db, year), String(year)).toEqual(await countedByHand(db, year));
  };

  it("agree with the enrolments counted one by one after every kind of write", async () => {
    const crane = await makeCourse(db, { tier: "tier_1" });
    const rigging = await makeCourse(db, { tier: "tier_2" });
    // on the edges of Sydney's months and years: 1 March begins at 13:00 UTC on 28 February,
    // 1 January 2026 at 13:00 UTC on 31 December 2025
    const edges = ["2026-02-28T12:59:59.999Z", "2026-02-28T13:00:00.000Z", "2025-12-31T12:59:59.999Z", "2025-12-31T13:00:00.000Z", "2026-11-30T13:59:00.000Z"];
    const ids: string[] = [];
    for (const [i, at] of edges.entries())
      ids.push((await makeEnrollment(db, (await makeUser(db)).id, i % 3 ? crane.id : rigging.id, { enrollment_date: at })).id);
    ids.push(
      (
        await makeEnrollment(db, (await makeUser(db)).id, rigging.id, {
          status: "completed",
          progress: 100,
          enrollment_date: "2026-03-03T01:00:00.000Z",
          completion_date: "2026-11-30T14:15:00.000Z",
        })
      ).id,
    );
    await agree();
    expect((await getReportCharts(db, 2026)).months.map((m) => m.enrollments)).toEqual([1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1]);

    const update = (id: string, set: Record<string, unknown>) => db.updateTable("enrollments").set(set).where("id", "=", id).execute();
    // completed, then its completion moved, then its enrolment date moved
    await update(ids[0]!, { status: "completed", completion_date: "2026-06-30T14:00:00.000Z" });
    await agree();
    await update(ids[0]!, { completion_date: "2026-07-15T00:00:00.000Z" });
    await agree();
    await update(ids[1]!, { enrollment_date: "2026-05-01T00:00:00.000Z" });
    await agree();
    // a write that changes none of what is counted
    await update(ids[1]!, { progress_percentage: 30 });
    await agree();
    // moved to a course of another tier
    await update(ids[0]!, { course_id: crane.id });
    await agree();
    // withdrawn after completing (a correction): no longer a completion
    await update(ids[5]!, { status: "withdrawn" });
    await agree();
    // a course moved to another tier takes its completions with it
    await update(ids[5]!, { status: "completed" });
    await db.updateTable("courses").set({ tier: "tier_3" }).where("id", "=", rigging.id).execute();
    await agree();
    expect((await getReportCharts(db, 2026)).completionsByTier.map((t) => t.completions)).toEqual([1, 0, 1]);
    // and deleted
    await db.deleteFrom("enrollments").where("id", "in", [ids[0]!, ids[2]!]).execute();
    await agree();
  });
});
