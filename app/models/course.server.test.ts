import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tier } from "#db/schema";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeCourse } from "../../tests/support/factories";
import { CATALOGUE_PAGE_SIZE, listCourses, listCoursesPage } from "./course.server";

/** The catalogue's pages: counted and paged in SQL, in listCourses' order, clamped to what exists. */
let db: DB;
let cleanup: () => Promise<void>;

const names = (courses: { name: string }[]) => courses.map((c) => c.name);

// 15 active courses (5 per tier, 6 of them with "Gantry" in the name) and 2 inactive ones,
// inserted out of order so only the query's ORDER BY can put them right.
const ACTIVE: Array<[Tier, string]> = [
  ["tier_3", "Tower crane Echo"],
  ["tier_1", "Dogging Bravo"],
  ["tier_2", "Gantry crane Charlie"],
  ["tier_1", "Gantry crane Alpha"],
  ["tier_3", "Gantry crane Delta"],
  ["tier_2", "Slewing crane Alpha"],
  ["tier_1", "Rigging Echo"],
  ["tier_3", "Tower crane Alpha"],
  ["tier_2", "Gantry crane Echo"],
  ["tier_1", "Dogging Alpha"],
  ["tier_3", "Portal crane Bravo"],
  ["tier_2", "Slewing crane Bravo"],
  ["tier_1", "Gantry crane Foxtrot"],
  ["tier_3", "Gantry crane Golf"],
  ["tier_2", "Bridge crane Delta"],
];
const EXPECTED_ORDER = [...ACTIVE].sort(([ta, na], [tb, nb]) => ta.localeCompare(tb) || (na < nb ? -1 : na > nb ? 1 : 0)).map(([, name]) => name);

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  for (const [tier, name] of ACTIVE) await makeCourse(db, { tier, name });
  await makeCourse(db, { tier: "tier_1", name: "Gantry crane Closed", is_active: false });
  await makeCourse(db, { tier: "tier_2", name: "Aardvark closed course", is_active: false });
});
afterAll(() => cleanup());

describe("listCoursesPage", () => {
  it("gives the first dozen active courses, by tier then name, with the count of all of them", async () => {
    const result = await listCoursesPage(db, { activeOnly: true });
    expect(CATALOGUE_PAGE_SIZE).toBe(12);
    expect(result).toMatchObject({ total: 15, page: 1, pageSize: 12, pageCount: 2 });
    expect(names(result.courses)).toEqual(EXPECTED_ORDER.slice(0, 12));
    expect(result.courses.every((c) => c.is_active)).toBe(true);
  });

  it("walks the same list as listCourses, page by page, each course on exactly one page", async () => {
    const all = names(await listCourses(db, { activeOnly: true }));
    expect(all).toEqual(EXPECTED_ORDER);
    const walked: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const result = await listCoursesPage(db, { activeOnly: true }, { page, pageSize: 4 });
      expect(result).toMatchObject({ total: 15, page, pageSize: 4, pageCount: 4 });
      walked.push(...names(result.courses));
    }
    expect(walked).toEqual(all);
  });

  it("shows the last page for a page past the end, and the first for a nonsense page", async () => {
    const last = await listCoursesPage(db, { activeOnly: true }, { page: 99 });
    expect(last.page).toBe(2);
    expect(names(last.courses)).toEqual(EXPECTED_ORDER.slice(12));
    expect((await listCoursesPage(db, { activeOnly: true }, { page: Number.POSITIVE_INFINITY })).page).toBe(2);
    for (const page of [0, -3, Number.NaN, 0.5]) {
      const first = await listCoursesPage(db, { activeOnly: true }, { page });
      expect(first.page, String(page)).toBe(1);
      expect(names(first.courses)).toEqual(EXPECTED_ORDER.slice(0, 12));
    }
    expect((await listCoursesPage(db, { activeOnly: true }, { page: 1.9 })).page).toBe(1);
  });

  it("keeps the page size within bounds", async () => {
    expect((await listCoursesPage(db, { activeOnly: true }, { pageSize: -5 })).pageSize).toBe(1);
    for (const pageSize of [0, Number.NaN]) {
      expect((await listCoursesPage(db, { activeOnly: true }, { pageSize })).pageSize, String(pageSize)).toBe(CATALOGUE_PAGE_SIZE);
    }
    const big = await listCoursesPage(db, { activeOnly: true }, { pageSize: 10_000 });
    expect(big).toMatchObject({ pageSize: 100, pageCount: 1 });
    expect(big.courses).toHaveLength(15);
  });

  it("counts and pages only what the search and tier filters let through", async () => {
    const gantry = ["Gantry crane Alpha", "Gantry crane Foxtrot", "Gantry crane Charlie", "Gantry crane Echo", "Gantry crane Delta", "Gantry crane Golf"];
    const first = await listCoursesPage(db, { activeOnly: true, search: "GANTRY" }, { page: 1, pageSize: 4 });
    expect(first).toMatchObject({ total: 6, page: 1, pageCount: 2 });
    expect(names(first.courses)).toEqual(gantry.slice(0, 4));
    const second = await listCoursesPage(db, { activeOnly: true, search: "gantry" }, { page: 2, pageSize: 4 });
    expect(names(second.courses)).toEqual(gantry.slice(4));

    const tier2 = await listCoursesPage(db, { activeOnly: true, tier: "tier_2" }, { pageSize: 2, page: 3 });
    expect(tier2).toMatchObject({ total: 5, page: 3, pageCount: 3 });
    expect(names(tier2.courses)).toEqual(["Slewing crane Bravo"]);

    const both = await listCoursesPage(db, { activeOnly: true, search: "gantry", tier: "tier_3" }, { pageSize: 1, page: 2 });
    expect(both).toMatchObject({ total: 2, page: 2, pageCount: 2 });
    expect(names(both.courses)).toEqual(["Gantry crane Golf"]);
  });

  it("counts inactive courses only when asked to", async () => {
    expect((await listCoursesPage(db, { search: "closed" })).total).toBe(2);
    expect((await listCoursesPage(db, {})).total).toBe(17);
    expect((await listCoursesPage(db, { activeOnly: true, search: "closed" })).total).toBe(0);
  });

  it("gives one empty first page when nothing matches", async () => {
    expect(await listCoursesPage(db, { activeOnly: true, search: "submarine" }, { page: 3 })).toEqual({
      courses: [],
      total: 0,
      page: 1,
      pageSize: CATALOGUE_PAGE_SIZE,
      pageCount: 1,
    });
  });

  it("puts each of two courses with the same name on exactly one page", async () => {
    const a = await makeCourse(db, { tier: "tier_1", name: "Twin course", unit_code: "TWIN1" });
    const b = await makeCourse(db, { tier: "tier_1", name: "Twin course", unit_code: "TWIN2" });
    const seen = [];
    for (const page of [1, 2]) {
      const result = await listCoursesPage(db, { activeOnly: true, search: "twin course" }, { page, pageSize: 1 });
      seen.push(result.courses[0]!.id);
    }
    expect(seen.sort()).toEqual([a.id, b.id].sort());
  });
});
