import { unzipSync, strFromU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as apiRoute from "~/routes/api+/admin.avetmiss";
import * as zipRoute from "~/routes/admin+/reports.avetmiss[.]zip";
import * as fileRoute from "~/routes/admin+/reports.avetmiss.$file";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { bodyOf, call, caller, sessionCookie } from "../../tests/support/api-calls";
import { createEnrollment } from "~/models/enrollment.server";
import { avetmissZip, avetmissZipStream, getAvetmissExport, getReportCharts, natFileStream, openYearReport } from "./export.server";
import { NAT_FILES, NAT_LAYOUTS } from "./nat-files";

let db: DB;
let cleanup: () => Promise<void>;
const ORG = { code: "45678", name: "Summit Crane & Rigging Training" };

const ids = {} as Record<"ready" | "missing" | "other" | "unitA" | "unitB" | "yard" | "site", string>;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  const now = new Date().toISOString();
  for (const [key, identifier, postcode] of [
    ["yard", "YARD1", "2304"],
    ["site", "SITE2", null],
  ] as const) {
    ids[key] = crypto.randomUUID();
    await db
      .insertInto("delivery_locations")
      .values({
        id: ids[key],
        identifier,
        name: `${identifier} location`,
        suburb: "Mayfield West",
        postcode,
        state: "01",
        country: "1101",
        created_at: key === "yard" ? "2020-01-01T00:00:00.000Z" : now,
        updated_at: now,
      })
      .execute();
  }
  ids.ready = (await makeUser(db, { full_name: "Renée Zoë Åström" })).id;
  await db
    .updateTable("users")
    .set({ date_of_birth: "1991-02-03", postcode: "2300", suburb: "Newcastle", state: "01", sex: "F", disability: "Y", disability_types: '["17"]' })
    .where("id", "=", ids.ready)
    .execute();
  ids.missing = (await makeUser(db, { full_name: "Mo Missing", usi: null })).id;
  ids.other = (await makeUser(db, { full_name: "Outside Year" })).id;
  ids.unitA = (await makeCourse(db, { unit_code: "TLILIC0040", tier: "tier_1" })).id;
  ids.unitB = (await makeCourse(db, { unit_code: "CPCCLRG3001", tier: "tier_2" })).id;
  await db.updateTable("courses").set({ field_of_education: "030717" }).where("id", "=", ids.unitA).execute();

  const completed = await makeEnrollment(db, ids.ready, ids.unitA, {
    status: "completed",
    enrollment_date: "2025-03-03T00:00:00.000Z",
    completion_date: "2025-03-12T00:00:00.000Z",
  });
  const withdrawn = await makeEnrollment(db, ids.missing, ids.unitA, { status: "withdrawn", enrollment_date: "2025-05-05T00:00:00.000Z" });
  await db.updateTable("enrollments").set({ updated_at: "2025-05-20T00:00:00.000Z" }).where("id", "=", withdrawn.id).execute();
  const continuing = await makeEnrollment(db, ids.missing, ids.unitB, { status: "in_progress", enrollment_date: "2025-12-20T00:00:00.000Z" });
  await db.updateTable("enrollments").set({ location_id: ids.site }).where("id", "=", continuing.id).execute();
  // finished the year before: not in 2025
  await makeEnrollment(db, ids.other, ids.unitB, {
    status: "completed",
    enrollment_date: "2024-02-01T00:00:00.000Z",
    completion_date: "2024-02-20T00:00:00.000Z",
  });
  expect(completed.id).toBeTruthy();
});
afterAll(() => cleanup());

const linesOf = (text: string) => text.split("\r\n").slice(0, -1);

describe("the year's export from the database", () => {
  it("reports the year's enrolments, and every client, unit and location they name", async () => {
    const { files, counts } = await getAvetmissExport(db, 2025, ORG);
    expect(counts.NAT00120).toBe(3);
    const activity = linesOf(files.NAT00120);
    const clientIds = new Set(activity.map((l) => l.slice(20, 30).trim()));
    const unitIds = new Set(activity.map((l) => l.slice(30, 42).trim()));
    const locationIds = new Set(activity.map((l) => l.slice(10, 20).trim()));
    expect(new Set(linesOf(files.NAT00080).map((l) => l.slice(0, 10).trim()))).toEqual(clientIds);
    expect(new Set(linesOf(files.NAT00085).map((l) => l.slice(0, 10).trim()))).toEqual(clientIds);
    expect(new Set(linesOf(files.NAT00060).map((l) => l.slice(0, 12).trim()))).toEqual(unitIds);
    expect(new Set(linesOf(files.NAT00020).map((l) => l.slice(10, 20).trim()))).toEqual(locationIds);
    expect(locationIds).toEqual(new Set(["YARD1", "SITE2"]));
    expect(files.NAT00080).not.toContain("Outside");
    expect(activity.map((l) => l.slice(71, 73)).sort()).toEqual(["20", "40", "70"]);
    expect(files.NAT00080).toContain("Astrom, Renee Zoe");
    expect(linesOf(files.NAT00090)).toHaveLength(1);
    for (const f of NAT_FILES) for (const line of linesOf(files[f])) expect(line, f).toHaveLength(NAT_LAYOUTS[f].width);
  });

  it("lists what NCVER would reject: missing date of birth, postcode, USI, field of education, location postcode", async () => {
    const { issues } = await getAvetmissExport(db, 2025, ORG);
    const problems = issues.map((i) => `${i.file} ${i.problem} ${i.href}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        `NAT00080 No date of birth /admin/students/${ids.missing}/edit`,
        `NAT00080 No postcode /admin/students/${ids.missing}/edit`,
        `NAT00080 No USI /admin/students/${ids.missing}/edit`,
        `NAT00060 No field of education code /admin/courses/${ids.unitB}/edit`,
        `NAT00020 No postcode /admin/locations/${ids.site}`,
      ]),
    );
    expect(problems.some((p) => p.includes(ids.ready))).toBe(false);
  });

  it("a trainer who enrolled is reported and checked like any learner, under the student number enrolling gave them", async () => {
    const trainer = await makeUser(db, { role: "trainer", full_name: "Terry Trainer" });
    const course = await makeCourse(db);
    await createEnrollment(db, { studentId: trainer.id, courseId: course.id, now: new Date("2024-03-04T01:00:00.000Z") });
    const { student_number } = await db.selectFrom("users").select("student_number").where("id", "=", trainer.id).executeTakeFirstOrThrow();
    const { files, issues } = await getAvetmissExport(db, 2024, ORG);
    expect(linesOf(files.NAT00080).map((l) => l.slice(0, 10).trim())).toContain(student_number);
    expect(issues.filter((i) => i.key === student_number).map((i) => i.problem)).toEqual(expect.arrayContaining(["No date of birth"]));
  });

  it("a year with no activity gives valid empty files", async () => {
    const { files, counts } = await getAvetmissExport(db, 1999, ORG);
    expect(counts.NAT00010).toBe(1);
    expect(files.NAT00120).toBe("");
    expect(files.NAT00080).toBe("");
  });

  it("zips the ten files, the same bytes for the same data made at the same time", async () => {
    const { files } = await getAvetmissExport(db, 2025, ORG);
    const made = new Date("2026-02-10T01:00:00.000Z");
    const zip = avetmissZip(files, made);
    const entries = unzipSync(zip);
    expect(Object.keys(entries).sort()).toEqual(NAT_FILES.map((f) => `${f}.txt`));
    expect(strFromU8(entries["NAT00120.txt"]!)).toBe(files.NAT00120);
    expect(Buffer.from(avetmissZip(files, made)).equals(Buffer.from(zip))).toBe(true);
    // the download's streamed zip, written from the records as it is read (sizes after each
    // entry's data, so not the same bytes): the same files, and the same bytes on each run
    const zipped = async (slice?: number) =>
      new Uint8Array(await new Response(avetmissZipStream(await openYearReport(db, 2025, ORG, made), made, slice)).arrayBuffer());
    const streamed = await zipped();
    expect(unzipSync(streamed)).toEqual(entries);
    expect(Buffer.from(await zipped()).equals(Buffer.from(streamed))).toBe(true);
    // compressed a few lines at a time, a file comes out whole all the same
    expect(unzipSync(await zipped(100))).toEqual(entries);
    // read two rows a statement, every walk crosses its batches and writes the same files
    expect(unzipSync(new Uint8Array(await new Response(avetmissZipStream(await openYearReport(db, 2025, ORG, made, 2), made, 100)).arrayBuffer()))).toEqual(
      entries,
    );
    // one file alone, streamed the same way
    for (const slice of [undefined, 100]) {
      const text = await new Response(natFileStream(await openYearReport(db, 2025, ORG, made), "NAT00085", slice)).text();
      expect(text).toBe(files.NAT00085);
    }
  });

  it("charts the year's enrolments and completions per month and completions per tier", async () => {
    const charts = await getReportCharts(db, 2025);
    expect(charts.months.map((m) => m.enrollments)).toEqual([0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1]);
    expect(charts.months.map((m) => m.completions)).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(charts.completionsByTier).toEqual([
      { tier: "tier_1", completions: 1 },
      { tier: "tier_2", completions: 0 },
      { tier: "tier_3", completions: 0 },
    ]);
  });
});

describe("the downloads", () => {
  it("GET /api/admin/avetmiss: the zip for admins, 422 {detail} for a year that is not four digits, 403 for others", async () => {
    const admin = await caller(db, "admin");
    const ok = await call(apiRoute, "GET", "/api/admin/avetmiss?year=2025", { token: admin.token });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Content-Type")).toBe("application/zip");
    expect(ok.headers.get("Content-Disposition")).toBe('attachment; filename="avetmiss-2025.zip"');
    expect(Object.keys(unzipSync(new Uint8Array(await ok.arrayBuffer())))).toHaveLength(10);
    for (const year of ["25", "20255", "abcd", ""]) {
      const bad = await call(apiRoute, "GET", `/api/admin/avetmiss?year=${year}`, { token: admin.token });
      expect(bad.status, year).toBe(422);
      expect((await bodyOf(bad)).detail).toBe("Enter the year as four digits, e.g. 2025");
    }
    expect((await call(apiRoute, "GET", "/api/admin/avetmiss", { token: admin.token })).status).toBe(422);
    for (const year of ["1979", "2100", "0000", "9999"]) {
      const out = await call(apiRoute, "GET", `/api/admin/avetmiss?year=${year}`, { token: admin.token });
      expect(out.status, year).toBe(422);
      expect((await bodyOf(out)).detail).toBe("Choose a collection year from 1980 to 2099");
    }
    // a year with nothing in it says so, rather than a zip holding NAT00010 alone
    const empty = await call(apiRoute, "GET", "/api/admin/avetmiss?year=1985", { token: admin.token });
    expect(empty.status).toBe(404);
    expect((await bodyOf(empty)).detail).toMatch(/^No training activity in 1985/);
    const trainer = await caller(db, "trainer");
    expect((await call(apiRoute, "GET", "/api/admin/avetmiss?year=2025", { token: trainer.token })).status).toBe(403);
    expect((await call(apiRoute, "GET", "/api/admin/avetmiss?year=2025")).status).toBe(401);
  });

  it("the reports page's zip and single files, with a readable 400 for a bad year and 404 for an unknown file", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const cookie = await sessionCookie(db, admin.id);
    const zip = await call(zipRoute, "GET", "/admin/reports/avetmiss.zip?year=2025", { cookie });
    expect(zip.status).toBe(200);
    const far = await call(zipRoute, "GET", "/admin/reports/avetmiss.zip?year=2150", { cookie });
    expect([far.status, await far.text()]).toEqual([400, "Choose a collection year from 1980 to 2099\n"]);
    const none = await call(fileRoute, "GET", "/admin/reports/avetmiss/NAT00060.txt?year=1990", { cookie, params: { file: "NAT00060.txt" } });
    expect(none.status).toBe(404);
    expect(await none.text()).toMatch(/^No training activity in 1990/);
    expect(zip.headers.get("Content-Disposition")).toBe('attachment; filename="avetmiss-2025.zip"');
    const single = await call(fileRoute, "GET", "/admin/reports/avetmiss/NAT00060.txt?year=2025", { cookie, params: { file: "NAT00060.txt" } });
    expect(single.status).toBe(200);
    expect(single.headers.get("Content-Disposition")).toBe('attachment; filename="NAT00060.txt"');
    const text = await single.text();
    expect(linesOf(text).every((l) => l.length === 123)).toBe(true);
    const bad = await call(zipRoute, "GET", "/admin/reports/avetmiss.zip?year=twenty", { cookie });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter the year as four digits");
    expect((await call(fileRoute, "GET", "/admin/reports/avetmiss/NAT99999.txt?year=2025", { cookie, params: { file: "NAT99999.txt" } })).status).toBe(404);
  });
});
