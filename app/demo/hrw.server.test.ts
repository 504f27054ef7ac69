import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { bookAssessment, licenceApplicationsDue, listHrwAssessments, noticesDue, recordPartResult } from "~/models/hrw/hrw-assessment.server";
import { missingChecks } from "~/models/hrw/hrw-candidate.server";
import { expiryWarnings } from "~/models/hrw/hrw-register.server";
import { HRW_STAGES } from "~/schemas/hrw-codes";
import { organisationToday } from "~/utils/organisation-calendar";
import { HRW_DEMO_ASSESSOR } from "./hrw.server";
import { assessorCurrency } from "~/models/hrw/hrw-currency.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb({ seed: true }));
});
afterAll(() => cleanup());

const idOf = async (email: string) => (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;

describe("the HRW demo data", () => {
  it("has a booking in every stage of the workflow and licence classes on the catalogue", async () => {
    const all = await listHrwAssessments(db);
    expect(new Set(all.map((a) => a.stage))).toEqual(new Set(Object.keys(HRW_STAGES)));
    const classes = await db.selectFrom("courses").select("licence_class").where("licence_class", "is not", null).execute();
    expect(classes.map((c) => c.licence_class).sort()).toEqual(["C2", "CN", "CT", "CV", "DG", "RA", "RB", "RI"]);
    const trainer = await idOf("trainer@example.com");
    // one NSW and one QLD booking still wait for their notice
    expect((await noticesDue(db, trainer)).map((n) => n.state).sort()).toEqual(["NSW", "QLD"]);
  });

  it("a yard in NSW and one in QLD, each state's bookings in every stage, and an assessor whose currency is lapsing", async () => {
    const today = organisationToday();
    const states = await db.selectFrom("delivery_locations").select("state").execute();
    expect(states.map((s) => s.state)).toEqual(expect.arrayContaining(["01", "03"]));
    const all = await listHrwAssessments(db);
    // booked with the notice due, notice given, results (awaiting the NSA), NSA issued
    for (const state of ["NSW", "QLD"]) {
      expect([...new Set(all.filter((a) => a.state === state).map((a) => a.stage))]).toEqual(
        expect.arrayContaining(["notice_due", "booked", "satisfactory", "nsa_issued"]),
      );
    }
    const twoDay = all.find((a) => a.state === "QLD" && a.stage === "satisfactory")!;
    expect((await db.selectFrom("hrw_notices").select("held_on").where("assessment_id", "=", twoDay.id).execute()).length).toBe(2);
    const currency = await assessorCurrency(db, await idOf("trainer@example.com"), today);
    expect(currency).toEqual([expect.objectContaining({ state: "QLD", licence_class: "CN", assessments: 5, hours: 40, status: "lapsing" })]);
  });

  it("two accredited assessors: one expiring within 60 days, one with a lapsed class that refuses a result", async () => {
    const today = organisationToday();
    const trainer = await idOf("trainer@example.com");
    const priya = await idOf(HRW_DEMO_ASSESSOR.email);
    expect((await expiryWarnings(db, today, trainer)).map((w) => [w.what, w.expired])).toEqual([["accreditation", false]]);
    const lapsed = (await listHrwAssessments(db, { assessorId: priya }))[0]!;
    expect(lapsed.licence_class).toBe("RB");
    await expect(
      recordPartResult(db, lapsed.id, { part: "knowledge", result: "satisfactory", assessed_on: lapsed.assessment_date }, priya),
    ).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/^Your accreditation does not cover RB on /),
    });
  });

  it("the demo student has a licence to apply for; Harry Campbell cannot be booked without identity evidence", async () => {
    const student = await idOf("student@example.com");
    expect(await licenceApplicationsDue(db, student, organisationToday())).toEqual([
      expect.objectContaining({ licence_class: "CN", nsa_number: "NSA-NSW-2026-0417" }),
    ]);
    const harry = await idOf("harry.campbell@example.com");
    expect(await missingChecks(db, harry, { date: organisationToday(), prerequisites: [] })).toEqual(["evidence of identity not sighted"]);
    const course = await db.selectFrom("courses").select("id").where("licence_class", "=", "CN").executeTakeFirstOrThrow();
    const location = await db.selectFrom("delivery_locations").select("id").limit(1).executeTakeFirstOrThrow();
    await expect(
      bookAssessment(
        db,
        {
          candidate_id: harry,
          course_id: course.id,
          state: "NSW",
          assessment_date: organisationToday(),
          start_time: "08:00",
          location_id: location.id,
          assessor_id: await idOf("trainer@example.com"),
          plant_description: "Crane",
          plant_registration: "X1",
        },
        await idOf("admin@example.com"),
      ),
    ).rejects.toMatchObject({ status: 409, message: "The candidate's checks are incomplete: evidence of identity not sighted" });
  });
});
