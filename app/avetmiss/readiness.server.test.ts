import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { getAvetmissSummary } from "./export.server";
import { readinessPage } from "./files";
import { checkReadiness, getReadiness, IN_REQUEST_ENROLLMENTS, releaseReadinessClaims } from "./readiness.server";
import { organisationYear } from "~/utils/organisation-calendar";

/**
 * The readiness list at any size: a small organisation's checked for the page itself, a large
 * one's read from the runner's last check, which a new check replaces whole or not at all.
 */

let db: DB;
let cleanup: () => Promise<void>;
const ORG = { code: "45678", name: "Summit Crane & Rigging Training" };
const YEAR = 2025;
const NOW = new Date("2026-02-10T01:00:00.000Z");
const everything = { find: "", page: 1 };
let learners: string[];

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  const course = await makeCourse(db, { unit_code: "TLILIC0040" });
  learners = [];
  // 60 learners without a USI nor a date of birth: more problems than a page of 50
  for (let i = 0; i < 60; i++) {
    const learner = await makeUser(db, { full_name: `Learner ${String(i).padStart(2, "0")} Nguyen`, usi: null });
    learners.push(learner.id);
    await makeEnrollment(db, learner.id, course.id, {
      status: "in_progress",
      enrollment_date: `${YEAR}-03-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00.000Z`,
    });
  }
});
afterAll(() => cleanup());

const stored = () => db.selectFrom("avetmiss_readiness").selectAll().where("year", "=", YEAR).executeTakeFirst();
const issueRows = async () =>
  Number(
    (
      await db
        .selectFrom("avetmiss_issues")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
/**
 * As if the organisation had more enrolments than a page's check reads (the count triggers keep
 * moved past IN_REQUEST_ENROLMENTS), for the length of `run`.
 */
async function asLarge<T>(run: () => Promise<T>): Promise<T> {
  const row = await db.selectFrom("enrollment_counts").select(["course_id", "status", "n"]).executeTakeFirstOrThrow();
  const setCount = (n: number) => sql`update enrollment_counts set n = ${n} where course_id = ${row.course_id} and status = ${row.status}`.execute(db);
  await setCount(IN_REQUEST_ENROLLMENTS + 1);
  try {
    return await run();
  } finally {
    await setCount(Number(row.n));
  }
}

describe("the readiness list", () => {
  it("is checked for the page itself at a small organisation", async () => {
    const view = await getReadiness(db, YEAR, ORG, everything, NOW);
    const summary = await getAvetmissSummary(db, YEAR, ORG, NOW);
    expect(view.checkedAt).toBeNull();
    expect(view).toMatchObject({ ...readinessPage(summary.issues, everything), counts: summary.counts, active: true, stale: false, checking: null });
    expect(view.total).toBeGreaterThan(60);
  });

  it("the runner's check writes every problem, in the list's order, and the page reads one page of them", async () => {
    expect(await checkReadiness(db, YEAR, ORG, { now: NOW })).toBe("checked");
    const summary = await getAvetmissSummary(db, YEAR, ORG, NOW);
    expect(await issueRows()).toBe(summary.issues.length);

    const view = await asLarge(() => getReadiness(db, YEAR, ORG, everything, NOW));
    expect(view.checkedAt).toBe(NOW.toISOString());
    expect(view.stale).toBe(false);
    const inMemory = readinessPage(summary.issues, everything);
    expect({ ...view, checkedAt: null }).toEqual({ ...inMemory, counts: summary.counts, active: true, checkedAt: null, stale: false, checking: null });

    // the second page, and a search by name (case aside), as the in-memory list gives them
    for (const query of [
      { find: "", page: 2 },
      { find: "LEARNER 07", page: 1 },
      { find: "nobody", page: 1 },
      { find: "", page: 99 },
    ]) {
      const fromTable = await asLarge(() => getReadiness(db, YEAR, ORG, query, NOW));
      const expected = readinessPage(summary.issues, query);
      expect([fromTable.matching, fromTable.page, fromTable.pageCount, fromTable.issues]).toEqual([
        expected.matching,
        expected.page,
        expected.pageCount,
        expected.issues,
      ]);
    }
  });

  it("is checked again only when what the export reads changed, and says so meanwhile", async () => {
    expect(await checkReadiness(db, YEAR, ORG, { now: NOW })).toBe("unchanged");
    const before = await stored();
    await db.updateTable("users").set({ usi: "2345678ABC", date_of_birth: "1990-01-01" }).where("id", "=", learners[0]!).execute();

    const stale = await asLarge(() => getReadiness(db, YEAR, ORG, everything, NOW));
    expect(stale.stale).toBe(true);
    expect(stale.total).toBe(before!.issue_count);
    // a small organisation's page checks for itself: the fix shows at once
    const own = await getReadiness(db, YEAR, ORG, everything, NOW);
    expect([own.checkedAt, own.total]).toEqual([null, before!.issue_count - 2]);
    // checked a moment ago: the runner waits before checking again
    expect(await checkReadiness(db, YEAR, ORG, { now: NOW, recheckAfterMs: 60_000 })).toBe("recent");

    const later = new Date(NOW.getTime() + 120_000);
    expect(await checkReadiness(db, YEAR, ORG, { now: later, recheckAfterMs: 60_000 })).toBe("checked");
    const after = await stored();
    expect(after!.generation).not.toBe(before!.generation);
    expect(after!.issue_count).toBe(before!.issue_count - 2);
    // the last check's problems are gone: only the new one's remain
    expect(await issueRows()).toBe(after!.issue_count);
    const fresh = await asLarge(() => getReadiness(db, YEAR, ORG, everything, later));
    expect([fresh.stale, fresh.total]).toEqual([false, after!.issue_count]);
  });

  it("one worker checks a year at a time; a check stopped midway leaves the last one standing", async () => {
    await db.updateTable("users").set({ usi: null }).where("id", "=", learners[0]!).execute();
    const last = await stored();
    const later = new Date(NOW.getTime() + 240_000);
    await db
      .updateTable("avetmiss_readiness")
      .set({ claimed_until: new Date(later.getTime() + 60_000).toISOString() })
      .where("year", "=", YEAR)
      .execute();
    expect(await checkReadiness(db, YEAR, ORG, { now: later })).toBe("claimed");
    // a caller that knows no server is running lets the claim go (the national bench, before it starts its own)
    await releaseReadinessClaims(db);
    expect((await stored())!.claimed_until).toBeNull();

    await expect(checkReadiness(db, YEAR, ORG, { now: later, stop: () => true })).rejects.toThrow(/stopped/);
    const after = await stored();
    expect([after!.generation, after!.issue_count, after!.claimed_until]).toEqual([last!.generation, last!.issue_count, null]);
    expect(await issueRows()).toBe(last!.issue_count);
  });

  it("a large organisation's year is never checked for the page: its first check is under way, or the year is not kept", async () => {
    await asLarge(async () => {
      const thisYear = organisationYear(NOW);
      const view = await getReadiness(db, thisYear, ORG, everything, NOW);
      expect([view.checking, view.total, view.issues]).toEqual(["under way", 0, []]);
      expect((await getReadiness(db, thisYear - 5, ORG, everything, NOW)).checking).toBe("not kept");
    });
  });
});
