import crypto from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "#db/connection";
import { signIn } from "~/auth/sign-in.server";
import { createSession } from "~/auth/session.server";
import { setPlannedDates } from "~/models/enrollment.server";
import { updateCourse } from "~/models/course-admin.server";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { AVETMISS_READS, avetmissDataVersion, getAvetmissSummary } from "./export.server";

/**
 * The reports page's AVETMISS summary is kept per the `avetmiss` change counter, which moves on
 * writes to what the export reads and on nothing else: a busy site's sign-ins must not rebuild
 * it (seconds at 100,000 enrolments), and an enrolment change must.
 */

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
const ORG = { code: "45678", name: "Summit Crane & Rigging Training" };
const YEAR = new Date().getUTCFullYear();
let learner: { id: string; email: string };
let enrollmentId: string;
let courseId: string;
let locationId: string;
let recognitionId: string;

beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb({ seed: true }));
  useAsAppDb(db);
  learner = await makeUser(db, { full_name: "Cache Learner", password: "password123" });
  courseId = (await makeCourse(db, { unit_code: "TLILIC0040" })).id;
  enrollmentId = (await makeEnrollment(db, learner.id, courseId, { status: "in_progress", enrollment_date: `${YEAR}-01-10T00:00:00.000Z` })).id;
  locationId = (await db.selectFrom("delivery_locations").select("id").executeTakeFirstOrThrow()).id;
  // a credit transfer or RPL decision is reported too (its outcome, dates and records)
  recognitionId = crypto.randomUUID();
  await db
    .insertInto("recognition_applications")
    .values({
      id: recognitionId,
      enrollment_id: enrollmentId,
      student_id: learner.id,
      course_id: courseId,
      kind: "rpl",
      status: "applied",
      statement: "Years of dogging",
      applied_by: learner.id,
      applied_at: `${YEAR}-01-11T00:00:00.000Z`,
      applied_on: `${YEAR}-01-11`,
    })
    .execute();
});
afterAll(() => cleanup());

const version = async () => (await avetmissDataVersion(db))!;
const summary = () => getAvetmissSummary(db, YEAR, ORG);

describe("the summary's version", () => {
  it("a sign-in, a session and a course's price leave the summary as it was; an enrolment change rebuilds it", async () => {
    const first = await summary();
    expect(await summary()).toBe(first);

    const before = await version();
    await signIn(db, { email: learner.email, password: "password123", client: "summary-test" });
    await createSession(db, learner.id);
    await updateCourse(db, courseId, { price: 99, is_active: true }, null);
    await db.updateTable("users").set({ password_hash: "x", last_login: new Date().toISOString() }).where("id", "=", learner.id).execute();
    expect(await db.selectFrom("users").select("last_login").where("id", "=", learner.id).executeTakeFirstOrThrow()).not.toEqual({ last_login: null });
    expect(await version()).toBe(before);
    expect(await summary()).toBe(first);

    const admin = (await db.selectFrom("users").select("id").where("role", "=", "admin").executeTakeFirstOrThrow()).id;
    await setPlannedDates(db, { enrollmentId, start: `${YEAR}-01-10`, end: `${YEAR}-02-01`, actorId: admin });
    expect(await version()).toBeGreaterThan(before);
    const rebuilt = await summary();
    expect(rebuilt).not.toBe(first);
    expect(await summary()).toBe(rebuilt);
  });

  it("moves on a write to every column the export reads, and not on the other columns", async () => {
    const rows: Record<keyof typeof AVETMISS_READS, string> = {
      users: learner.id,
      courses: courseId,
      enrollments: enrollmentId,
      delivery_locations: locationId,
      recognition_applications: recognitionId,
    };
    for (const [table, columns] of Object.entries(AVETMISS_READS) as Array<[keyof typeof AVETMISS_READS, readonly string[]]>) {
      for (const qualified of columns) {
        const column = qualified.slice(table.length + 1);
        if (column === "id") continue; // a row's id never changes
        const before = await version();
        await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)} where id = ${rows[table]}`.execute(db);
        expect(await version(), `${table}.${column}`).toBeGreaterThan(before);
      }
    }
    const quiet: Array<[keyof typeof AVETMISS_READS, string]> = [
      ["users", "last_login"],
      ["users", "password_hash"],
      ["users", "is_active"],
      ["users", "role"],
      ["courses", "price_cents"],
      ["courses", "is_active"],
      ["courses", "description"],
    ];
    for (const [table, column] of quiet) {
      const before = await version();
      await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)} where id = ${rows[table]}`.execute(db);
      expect(await version(), `${table}.${column}`).toBe(before);
    }
    const before = await version();
    await makeUser(db, { full_name: "Not Enrolled Yet" });
    expect(await version(), "a new account that has not enrolled").toBe(before);
    await makeEnrollment(db, learner.id, (await makeCourse(db)).id);
    expect(await version(), "a new enrolment").toBeGreaterThan(before);
  });

  it("a write through another connection (another process or server) is seen on the next view", async () => {
    const other = openDatabase(url);
    try {
      const first = await summary();
      expect(await summary()).toBe(first);
      await other.updateTable("users").set({ postcode: "2300" }).where("id", "=", learner.id).execute();
      const next = await summary();
      expect(next).not.toBe(first);
      await other.updateTable("sessions").set({ last_seen_at: new Date().toISOString() }).execute();
      expect(await summary()).toBe(next);
    } finally {
      await other.destroy();
    }
  });
});
