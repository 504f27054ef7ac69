import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { sqlitePlan } from "../../tests/support/query-plan";
import { createTestDb, TEST_DIALECT } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { complianceCountQueries, EXPORT_COLUMNS, getComplianceChecks, getEnrollmentStatistics, studentExportRows } from "./report.server";
import { csvField, toCsv } from "~/utils/csv";
import { newVerificationCode } from "./certificates/certificate-number.server";

const DAY = 864e5;
const all = async <T>(rows: AsyncIterable<T>) => {
  const read: T[] = [];
  for await (const row of rows) read.push(row);
  return read;
};
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

describe("reports", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
  });
  afterAll(() => cleanup());

  it("shows zeros and an all-clear only when there is nothing wrong", async () => {
    const stats = await getEnrollmentStatistics(db);
    expect(stats.total).toBe(0);
    expect(stats.byStatus.map((s) => s.count)).toEqual([0, 0, 0, 0]);
    const checks = await getComplianceChecks(db);
    expect(checks.every((c) => c.ok && c.count === 0)).toBe(true);
  });

  it("counts enrolments by status and tier and finds record problems", async () => {
    const complete = await makeUser(db, { full_name: "Complete Record" });
    await db.updateTable("users").set({ date_of_birth: "1990-01-01", emergency_contact: "Kim 0400 000 000" }).where("id", "=", complete.id).execute();
    const noDob = await makeUser(db, { full_name: "No Dob" }); // phone but no dob, no emergency contact
    await makeUser(db, { full_name: "Inactive no dob", is_active: false }); // inactive: not counted
    const t1 = await makeCourse(db, { tier: "tier_1" });
    const t2 = await makeCourse(db, { tier: "tier_2" });
    const closed = await makeCourse(db, { tier: "tier_3", is_active: false });
    const closedEmpty = await makeCourse(db, { tier: "tier_3", is_active: false });
    const late = await makeEnrollment(db, complete.id, t1.id, { status: "completed", progress: 100, completion_date: ago(40) });
    await makeEnrollment(db, noDob.id, t1.id, { status: "completed", progress: 100, completion_date: ago(10) }); // inside 30 days
    await makeEnrollment(db, complete.id, t2.id, { status: "in_progress", progress: 50 });
    await makeEnrollment(db, noDob.id, closed.id, { status: "enrolled" });
    await makeEnrollment(db, complete.id, closed.id, { status: "withdrawn" });
    await makeEnrollment(db, noDob.id, t2.id, { status: "completed", progress: 100, completion_date: null });
    expect(closedEmpty.id).toBeTruthy();

    const stats = await getEnrollmentStatistics(db);
    expect(stats.total).toBe(6);
    expect(stats.byStatus).toEqual([
      { status: "enrolled", count: 1 },
      { status: "in_progress", count: 1 },
      { status: "completed", count: 3 },
      { status: "withdrawn", count: 1 },
    ]);
    expect(stats.byTier).toEqual([
      { tier: "tier_1", total: 2, active: 0, completed: 2, withdrawn: 0, completion_rate: 100 },
      { tier: "tier_2", total: 2, active: 1, completed: 1, withdrawn: 0, completion_rate: 50 },
      { tier: "tier_3", total: 2, active: 1, completed: 0, withdrawn: 1, completion_rate: 0 },
    ]);

    const checks = Object.fromEntries((await getComplianceChecks(db)).map((c) => [c.id, c]));
    expect(checks.uncertified).toMatchObject({ count: 1, ok: false, href: "/admin/students?issue=uncertified" });
    expect(checks["missing-dob"]).toMatchObject({ count: 1, ok: false });
    expect(checks["missing-contact"]).toMatchObject({ count: 1, ok: false });
    expect(checks["inactive-courses"]).toMatchObject({ count: 1, ok: false, href: "/admin/courses?status=inactive" });
    expect(checks["undated-completions"]).toMatchObject({ count: 1, ok: false });

    // issuing the certificate clears the first check
    await db
      .insertInto("certificates")
      .values({
        id: crypto.randomUUID(),
        certificate_number: "SCR-R-1",
        student_id: complete.id,
        course_id: t1.id,
        enrollment_id: late.id,
        tier_achieved: "tier_1",
        issue_date: ago(1),
        issued_by: null,
        verification_code: newVerificationCode(),
        created_at: ago(1),
      })
      .execute();
    const after = Object.fromEntries((await getComplianceChecks(db)).map((c) => [c.id, c]));
    expect(after.uncertified).toMatchObject({ count: 0, ok: true });
  });

  it("exports every student with one row per enrolment", async () => {
    const { db: fresh, cleanup: done } = await createTestDb();
    try {
      const a = await makeUser(fresh, { full_name: "Export A", created_at: ago(1) });
      await makeUser(fresh, { full_name: "Export B", created_at: ago(2) });
      await makeUser(fresh, { full_name: "Trainer", role: "trainer" });
      const c1 = await makeCourse(fresh, { name: "C1", unit_code: "UNIT1" });
      const c2 = await makeCourse(fresh, { name: "C2", unit_code: "UNIT2" });
      await makeEnrollment(fresh, a.id, c1.id, { status: "completed", enrollment_date: ago(5) });
      await makeEnrollment(fresh, a.id, c2.id, { status: "enrolled", enrollment_date: ago(3) });
      const rows = await all(studentExportRows(fresh));
      expect(rows.map((r) => [r.full_name, r.course_name, r.enrollment_status])).toEqual([
        ["Export A", "C1", "completed"],
        ["Export A", "C2", "enrolled"],
        ["Export B", null, null],
      ]);
      const csv = toCsv(EXPORT_COLUMNS, rows);
      expect(csv.split("\r\n")[0]).toBe(EXPORT_COLUMNS.join(","));
      expect(csv.split("\r\n")).toHaveLength(5); // header, 3 rows, trailing empty
    } finally {
      await done();
    }
  });

  it("exports times on the organisation's clock with their UTC offset (1:23 am on 28 Nov in Sydney is 27 Nov in UTC)", async () => {
    const { db: fresh, cleanup: done } = await createTestDb();
    try {
      const a = await makeUser(fresh, { full_name: "Early Bird", created_at: "2026-11-27T14:23:52.000Z" });
      const c = await makeCourse(fresh, { name: "C1", unit_code: "UNIT1" });
      await makeEnrollment(fresh, a.id, c.id, { status: "enrolled", enrollment_date: "2026-06-30T15:05:00.000Z" });
      const [row] = await all(studentExportRows(fresh));
      expect(row).toMatchObject({ joined: "2026-11-28T01:23:52+11:00", enrollment_date: "2026-07-01T01:05:00+10:00", completion_date: null });
    } finally {
      await done();
    }
  });

  // SQLite's plans only: PostgreSQL plans from table statistics an empty test database lacks.
  it.runIf(TEST_DIALECT === "sqlite")("counts every record check through an index, never reading a table once per row of another", async () => {
    for (const [name, query] of Object.entries(complianceCountQueries(db))) {
      const steps = await sqlitePlan(db, query);
      expect(steps.length, name).toBeGreaterThan(0);
      // "SCAN t" reads all of t (once per row of the table before it in a join); "SEARCH t USING INDEX" does not
      expect(
        steps.filter((step) => /^SCAN /.test(step)),
        `${name}: ${steps.join(" | ")}`,
      ).toEqual([]);
    }
  });
});

describe("CSV fields", () => {
  it("quotes commas, quotes and line breaks", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(null)).toBe("");
    expect(csvField(42)).toBe("42");
  });

  it("defuses spreadsheet formulas", () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvField("+61 400 000 000")).toBe("'+61 400 000 000");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tcmd")).toBe("'\tcmd");
    expect(csvField(-5)).toBe("-5");
  });
});
