import { unzipSync } from "fflate";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { DB } from "#db/connection";
import * as apiRoute from "~/routes/api+/admin.avetmiss";
import * as zipRoute from "~/routes/admin+/reports.avetmiss[.]zip";
import * as fileRoute from "~/routes/admin+/reports.avetmiss.$file";
import * as reportsPage from "~/routes/admin+/reports";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { bodyOf, call, caller, sessionCookie } from "../../tests/support/api-calls";
import { recordAssessment } from "~/models/assessment.server";
import { nextCertificateNumber } from "~/models/certificates/certificate-number.server";
import { createEnrollment, setPlannedDates, updateEnrollmentProgress } from "~/models/enrollment.server";
import { avetmissZip, getAvetmissExport, getReportCharts } from "./export.server";

/**
 * The AVETMISS report on the RTO's calendar, against a clock set to the moments that catch a
 * UTC date out: 14:15 UTC on 27 November is 01:15 on the 28th in Sydney, and 23:30 UTC on
 * 31 December is 10:30 on New Year's Day there.
 */

let db: DB;
let cleanup: () => Promise<void>;
let trainerId: string;
const ORG = { code: "45678", name: "Summit Crane & Rigging Training" };

/** 01:15 on Saturday 28 November 2026 in Sydney. */
const EARLY_28_NOV = "2026-11-27T14:15:00.000Z";
/** 10:30 on 1 January 2027 in Sydney. */
const NEW_YEARS_MORNING = "2026-12-31T23:30:00.000Z";

function clockAt(iso: string) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
}

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  trainerId = (await makeUser(db, { role: "trainer" })).id;
  const at = "2020-01-01T00:00:00.000Z";
  await db
    .insertInto("delivery_locations")
    .values({
      id: crypto.randomUUID(),
      identifier: "YARD1",
      name: "Training yard",
      suburb: "Mayfield West",
      postcode: "2304",
      state: "01",
      country: "1101",
      created_at: at,
      updated_at: at,
    })
    .execute();
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => cleanup());

const linesOf = (text: string) => text.split("\r\n").slice(0, -1);

/** A learner's NAT00120 records: DDMMYYYY dates and the outcome. */
function activityOf(files: { NAT00120: string }, studentNumber: string) {
  return linesOf(files.NAT00120)
    .filter((l) => l.slice(20, 30).trim() === studentNumber)
    .map((l) => ({ start: l.slice(52, 60), end: l.slice(60, 68), outcome: l.slice(71, 73) }));
}

/** A learner enrolled (at the clock's time) in a fresh five-day unit; their student number and the enrolment. */
async function enrol(name: string, plan?: { start: string; end: string }) {
  const student = await makeUser(db, { full_name: name });
  const course = await makeCourse(db);
  const enrollment = await createEnrollment(db, { studentId: student.id, courseId: course.id });
  if (plan) await setPlannedDates(db, { enrollmentId: enrollment.id, start: plan.start, end: plan.end, actorId: trainerId });
  const { student_number } = await db.selectFrom("users").select("student_number").where("id", "=", student.id).executeTakeFirstOrThrow();
  return { studentId: student.id, enrollmentId: enrollment.id, studentNumber: student_number! };
}

/** A passed result dated `date`, then the enrolment completed (at the clock's time). */
async function passAndComplete(enrollmentId: string, date: string) {
  await recordAssessment(db, {
    enrollment_id: enrollmentId,
    assessment_type: "Practical",
    status: "passed",
    score: 9,
    max_score: 10,
    assessment_date: date,
    feedback: null,
    actorId: trainerId,
  });
  await updateEnrollmentProgress(db, { enrollmentId, progress: 100, status: "completed", actorId: trainerId });
}

describe("the RTO's day, not UTC's", () => {
  it("a learner enrolled and completed at 01:15 on 28 November in Sydney starts and ends on the 28th", async () => {
    clockAt(EARLY_28_NOV);
    const { enrollmentId, studentNumber } = await enrol("Early Bird");
    const planned = await db.selectFrom("enrollments").select("planned_start_date").where("id", "=", enrollmentId).executeTakeFirstOrThrow();
    expect(planned.planned_start_date).toBe("2026-11-28");
    await passAndComplete(enrollmentId, "2026-11-28");
    const { files, issues } = await getAvetmissExport(db, 2026, ORG);
    expect(activityOf(files, studentNumber)).toEqual([{ start: "28112026", end: "28112026", outcome: "20" }]);
    expect(issues.filter((i) => i.file === "NAT00120" && i.key.startsWith(studentNumber))).toEqual([]);
  });

  it("a completion at 10:30 on New Year's Day is the new year's: continuing (70) in the old year's report, completed (20) in the new", async () => {
    clockAt("2026-12-14T00:00:00.000Z");
    const { enrollmentId, studentNumber } = await enrol("New Year", { start: "2026-12-14", end: "2027-01-08" });
    clockAt(NEW_YEARS_MORNING);
    await passAndComplete(enrollmentId, "2027-01-01");
    const { files: newYear } = await getAvetmissExport(db, 2027, ORG);
    expect(activityOf(newYear, studentNumber)).toEqual([{ start: "14122026", end: "01012027", outcome: "20" }]);
    const { files: oldYear } = await getAvetmissExport(db, 2026, ORG);
    expect(activityOf(oldYear, studentNumber)).toEqual([{ start: "14122026", end: "01012027", outcome: "70" }]);
  });

  it("on New Year's morning the reports page shows the new year, and a certificate is numbered in it", async () => {
    clockAt(NEW_YEARS_MORNING);
    const admin = await makeUser(db, { role: "admin" });
    const page = await call(reportsPage, "GET", "/admin/reports", { cookie: await sessionCookie(db, admin.id) });
    expect(page.status).toBe(200);
    expect((await bodyOf(page)).year).toBe(2027);
    expect(await nextCertificateNumber(db, new Date(NEW_YEARS_MORNING))).toMatch(/^SCR-2027-\d{5}$/);
  });

  it("the charts count a completion at 01:15 on 1 December in Sydney in December", async () => {
    clockAt("2026-11-23T00:00:00.000Z");
    const { enrollmentId } = await enrol("Chart Check", { start: "2026-11-23", end: "2026-11-30" });
    const before = await getReportCharts(db, 2026);
    clockAt("2026-11-30T14:15:00.000Z");
    await passAndComplete(enrollmentId, "2026-12-01");
    const after = await getReportCharts(db, 2026);
    const added = after.months.map((m, i) => m.completions - before.months[i]!.completions);
    expect(added).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });
});

describe("a collection year reports the activity dated in it", () => {
  it("training entered after the fact is reported in the year it happened, not the year it was typed in", async () => {
    clockAt("2026-02-10T00:00:00.000Z");
    const { enrollmentId, studentNumber } = await enrol("After Fact", { start: "2025-11-03", end: "2025-11-07" });
    await passAndComplete(enrollmentId, "2025-11-07");
    const { files: then } = await getAvetmissExport(db, 2025, ORG);
    expect(activityOf(then, studentNumber)).toEqual([{ start: "03112025", end: "07112025", outcome: "20" }]);
    const { files: now } = await getAvetmissExport(db, 2026, ORG);
    expect(activityOf(now, studentNumber)).toEqual([]);
  });

  it("a year still to come is refused with a message on the page, the zip, the single files and the /api", async () => {
    clockAt(EARLY_28_NOV);
    await enrol("Under Way", { start: "2026-11-02", end: "2027-02-12" });
    const admin = await makeUser(db, { role: "admin" });
    const cookie = await sessionCookie(db, admin.id);
    const api = await caller(db, "admin");
    for (const year of [2027, 2028, 2099]) {
      const message = `${year} has not begun: there is nothing to report for it yet. Choose a collection year up to 2026.`;
      const fromApi = await call(apiRoute, "GET", `/api/admin/avetmiss?year=${year}`, { token: api.token });
      expect([fromApi.status, (await bodyOf(fromApi)).detail]).toEqual([422, message]);
      const zip = await call(zipRoute, "GET", `/admin/reports/avetmiss.zip?year=${year}`, { cookie });
      expect([zip.status, await zip.text()]).toEqual([400, `${message}\n`]);
      const single = await call(fileRoute, "GET", `/admin/reports/avetmiss/NAT00120.txt?year=${year}`, { cookie, params: { file: "NAT00120.txt" } });
      expect([single.status, await single.text()]).toEqual([400, `${message}\n`]);
      const page = await call(reportsPage, "GET", `/admin/reports?year=${year}`, { cookie });
      expect(page.status).toBe(400);
      expect((await bodyOf(page)).yearError).toBe(message);
    }
    // this year, on the organisation's calendar, is open
    expect((await call(apiRoute, "GET", "/api/admin/avetmiss?year=2026", { token: api.token })).status).toBe(200);
  });

  it("a later year holds only what is dated in it; a year without any answers 'nothing to report'", async () => {
    clockAt("2027-03-01T00:00:00.000Z");
    const { files, active } = await getAvetmissExport(db, 2027, ORG);
    expect(active).toBe(true);
    // the only activities dated in 2027: the one finished on New Year's morning, the one planned to February
    expect(
      linesOf(files.NAT00120)
        .map((l) => l.slice(60, 68))
        .sort(),
    ).toEqual(["01012027", "12022027"]);
    const later = await getAvetmissExport(db, 2099, ORG);
    expect([later.active, later.counts.NAT00120]).toEqual([false, 0]);
    const api = await caller(db, "admin");
    const past = await call(apiRoute, "GET", "/api/admin/avetmiss?year=2024", { token: api.token });
    expect([past.status, (await bodyOf(past)).detail]).toEqual([404, expect.stringMatching(/^No training activity in 2024/)]);
  });

  it("an enrolment booked for next year is 'not yet started' (85) in this year's report; one planned to start in December is on the list once its start has passed", async () => {
    clockAt(EARLY_28_NOV);
    const booked = await enrol("Booked Ahead", { start: "2027-02-01", end: "2027-02-05" });
    const december = await enrol("December Start", { start: "2026-12-07", end: "2026-12-11" });
    const { files, issues } = await getAvetmissExport(db, 2026, ORG);
    expect(activityOf(files, booked.studentNumber)).toEqual([{ start: "01022027", end: "05022027", outcome: "85" }]);
    expect(activityOf(files, december.studentNumber)).toEqual([{ start: "07122026", end: "11122026", outcome: "85" }]);
    const listed = (n: string) => issues.filter((i) => i.file === "NAT00120" && i.key.startsWith(n)).map((i) => i.field);
    expect(listed(booked.studentNumber)).toEqual([]);
    // on 28 November the December start is still ahead: not started is what it is
    expect(listed(december.studentNumber)).toEqual([]);
    // lodged in January, a December start not begun is a record to fix
    clockAt("2027-01-10T00:00:00.000Z");
    const lodged = await getAvetmissExport(db, 2026, ORG);
    const listedThen = (n: string) => lodged.issues.filter((i) => i.file === "NAT00120" && i.key.startsWith(n)).map((i) => i.field);
    expect(listedThen(booked.studentNumber)).toEqual([]);
    expect(listedThen(december.studentNumber)).toEqual(["Activity start date"]);
  });
});

describe("the zip", () => {
  it("dates its entries when it is made, on the organisation's clock", async () => {
    clockAt(EARLY_28_NOV);
    const { files } = await getAvetmissExport(db, 2026, ORG);
    const zip = avetmissZip(files);
    expect(Object.keys(unzipSync(zip))).toHaveLength(10);
    // the first entry's local header: last-modified time at byte 10, date at byte 12 (MS-DOS form)
    const view = new DataView(zip.buffer, zip.byteOffset);
    const time = view.getUint16(10, true);
    const date = view.getUint16(12, true);
    expect([(date >> 9) + 1980, (date >> 5) & 15, date & 31, time >> 11, (time >> 5) & 63]).toEqual([2026, 11, 28, 1, 15]);
  });
});
