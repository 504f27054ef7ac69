import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../../tests/support/test-db";
import { makeCourse, makeUser } from "../../../tests/support/factories";
import { HRW_MESSAGES, type HrwState, type LicenceClass } from "~/schemas/hrw-codes";
import {
  bookAssessment,
  getHrwAssessment,
  licenceApplicationsDue,
  recordNotice,
  recordNsa,
  recordPartResult,
  rescheduleAssessment,
} from "./hrw-assessment.server";
import { getCandidateChecks, recordCandidateCheck } from "./hrw-candidate.server";
import { assessorCurrency, completeRegulatorTask, listRegulatorTasks } from "./hrw-currency.server";
import { addAccreditation, coveringAccreditation, removeAccreditation } from "./hrw-register.server";
import { editRule, listRules, stateRulesOn } from "./hrw-rules.server";
import { setStaffActive } from "../staff.server";

let db: DB;
let cleanup: () => Promise<void>;
let admin: { id: string };
let locationId: string;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  admin = await makeUser(db, { role: "admin" });
  locationId = crypto.randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto("delivery_locations")
    .values({
      id: locationId,
      identifier: `ST${locationId.slice(0, 6)}`,
      name: "State yard",
      suburb: "Mayfield West",
      postcode: "2304",
      state: "01",
      country: "1101",
      created_at: at,
      updated_at: at,
    })
    .execute();
});
afterAll(() => cleanup());

const at = (date: string, time = "02:00") => new Date(`${date}T${time}:00Z`);

async function licenceCourse(licenceClass: string) {
  const course = await makeCourse(db, { name: `${licenceClass} course` });
  await db.updateTable("courses").set({ licence_class: licenceClass, licence_prerequisites: "[]" }).where("id", "=", course.id).execute();
  return course;
}

async function readyCandidate() {
  const student = await makeUser(db, { role: "student" });
  await recordCandidateCheck(db, student.id, { kind: "age", date_of_birth: "1990-05-01" }, admin.id);
  await recordCandidateCheck(db, student.id, { kind: "identity", documents: ["passport", "driver_licence"] }, admin.id);
  return student;
}

async function assessor(regulator: HrwState, classes: LicenceClass[], startsOn = "2023-01-01", expiresOn = "2029-12-31") {
  const trainer = await makeUser(db, { role: "trainer" });
  await addAccreditation(
    db,
    trainer.id,
    { regulator, number: `${regulator}-${crypto.randomUUID().slice(0, 8)}`, classes, starts_on: startsOn, expires_on: expiresOn },
    admin.id,
    at("2022-06-01"),
  );
  return trainer;
}

async function book(state: HrwState, cls: string, trainerId: string, date: string, bookedOn: string, candidateId?: string, hours: number | null = null) {
  const course = await licenceCourse(cls);
  const candidate = candidateId ?? (await readyCandidate()).id;
  const { id } = await bookAssessment(
    db,
    {
      candidate_id: candidate,
      course_id: course.id,
      assessor_id: trainerId,
      state,
      assessment_date: date,
      start_time: "08:00",
      location_id: locationId,
      plant_description: "Franna AT-20",
      plant_registration: "XN-42",
      hours,
    },
    admin.id,
    at(bookedOn),
  );
  return { id, candidate };
}

const part = (p: "knowledge" | "calculations" | "practical", assessed_on: string) => ({ part: p, result: "satisfactory" as const, assessed_on });

describe("the rules as data", () => {
  it("are seeded with their sources, secondary ones marked, and read by name for a state on a date", async () => {
    const rules = await listRules(db, "2026-11-28");
    const nsw = rules.find((r) => r.state === "NSW" && r.rule === "booking_lead_days")!;
    expect(nsw.current).toMatchObject({ value: "7", unit: "calendar days", secondary: true, in_force_from: null });
    expect(nsw.current!.source).toContain("internal procedure");
    const wa = rules.find((r) => r.state === "WA" && r.rule === "accreditation_exact_classes")!;
    expect(wa.current).toMatchObject({ value: "yes", in_force_from: "2025-01-01", secondary: false });
    expect(wa.earlier.map((e) => e.value)).toEqual(["no"]);
    expect((await stateRulesOn(db, "WA", "2024-12-31")).flag("accreditation_exact_classes")).toBe(false);
    expect((await stateRulesOn(db, "WA", "2025-01-01")).flag("accreditation_exact_classes")).toBe(true);
    expect((await stateRulesOn(db, "QLD", "2026-11-28")).number("currency_assessments")).toBe(9);
    expect((await stateRulesOn(db, "NSW", "2025-05-06")).flag("aen_required")).toBe(false);
    expect((await stateRulesOn(db, "NSW", "2025-05-07")).flag("aen_required")).toBe(true);
    // WA names no lead time: the notice is due by the assessment day, as its source says
    const waNotice = rules.find((r) => r.state === "WA" && r.rule === "notice_business_days")!;
    expect(waNotice.current).toMatchObject({ value: "0", unit: "business days", secondary: false, in_force_from: null });
    expect(waNotice.current!.source).toContain("before any assessment");
    expect(waNotice.earlier).toEqual([]);
  });

  it("a rule edited with a reason changes outcomes from its in-force date only, and the edit is audited", async () => {
    const trainer = await assessor("QLD", ["CN"]);
    await editRule(
      db,
      {
        state: "QLD",
        rule: "notice_business_days",
        value: "5",
        in_force_from: "2027-03-01",
        reason: "WHSQ now asks five business days",
        source: "WHSQ letter of 1 Feb 2027",
      },
      admin.id,
      at("2026-11-20"),
    );
    const before = await book("QLD", "CN", trainer.id, "2027-02-26", "2026-11-20");
    const after = await book("QLD", "CN", trainer.id, "2027-03-05", "2026-11-20");
    // Fri 26 Feb: 3 business days before is Tue 23; Fri 5 Mar: 5 business days before is Fri 26 Feb
    expect((await getHrwAssessment(db, before.id))!.notice_due_on).toBe("2027-02-23");
    expect((await getHrwAssessment(db, after.id))!.notice_due_on).toBe("2027-02-26");
    const listing = (await listRules(db, "2026-11-28")).find((r) => r.state === "QLD" && r.rule === "notice_business_days")!;
    expect(listing.current!.value).toBe("3");
    expect(listing.upcoming).toMatchObject([
      { value: "5", in_force_from: "2027-03-01", reason: "WHSQ now asks five business days", source: "WHSQ letter of 1 Feb 2027", secondary: false },
    ]);
    const audit = await db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "subject_id", "detail"])
      .where("action", "=", "hrw.state_rule_changed")
      .where("subject_id", "=", "QLD:notice_business_days")
      .execute();
    expect(audit).toEqual([
      {
        action: "hrw.state_rule_changed",
        actor_id: admin.id,
        subject_id: "QLD:notice_business_days",
        detail: "QLD notice_business_days: 3 business days to 5 business days from 1 Mar 2027. Reason: WHSQ now asks five business days",
      },
    ]);
  });
});

describe("NSW", () => {
  it("the AEN is checked against the state's format, and a result without one is refused", async () => {
    const trainer = await assessor("NSW", ["CN"]);
    const { id, candidate } = await book("NSW", "CN", trainer.id, "2026-12-07", "2026-11-20");
    await recordNotice(db, id, { notice_reference: "SNSW-1", sent_on: "2026-11-20" }, trainer.id, at("2026-11-20"));
    await expect(recordPartResult(db, id, part("knowledge", "2026-12-07"), trainer.id, at("2026-12-07"))).rejects.toMatchObject({
      status: 409,
      message: HRW_MESSAGES.aenMissing,
    });
    await expect(recordCandidateCheck(db, candidate, { kind: "aen", state: "NSW", aen: "AEN 12" }, trainer.id)).rejects.toMatchObject({
      status: 422,
      fieldErrors: { aen: HRW_MESSAGES.aenFormat },
    });
    await expect(recordCandidateCheck(db, candidate, { kind: "aen", state: "QLD", aen: "AEN1234567" }, trainer.id)).rejects.toMatchObject({
      status: 422,
      message: HRW_MESSAGES.aenNotAsked,
    });
    await recordCandidateCheck(db, candidate, { kind: "aen", state: "NSW", aen: "AEN1234567" }, trainer.id, at("2026-12-06"));
    expect((await getCandidateChecks(db, candidate))!.aens).toMatchObject([{ state: "NSW", aen: "AEN1234567" }]);
    await recordPartResult(db, id, part("knowledge", "2026-12-07"), trainer.id, at("2026-12-07"));
    expect((await getHrwAssessment(db, id))!.history).toHaveLength(1);
  });

  it("a part assessed before the day the AEN was recorded is refused, on the organisation's day", async () => {
    const trainer = await assessor("NSW", ["CN"]);
    const { id, candidate } = await book("NSW", "CN", trainer.id, "2026-12-04", "2026-11-20");
    await recordNotice(db, id, { notice_reference: "SNSW-2", sent_on: "2026-11-20" }, trainer.id, at("2026-11-20"));
    // 21:00 UTC on 5 Dec is 6 Dec in Sydney: the AEN was recorded on 6 Dec
    await recordCandidateCheck(db, candidate, { kind: "aen", state: "NSW", aen: "AEN7654321" }, trainer.id, at("2026-12-05", "21:00"));
    for (const day of ["2026-12-04", "2026-12-05"])
      await expect(recordPartResult(db, id, part("knowledge", day), trainer.id, at("2026-12-08"))).rejects.toMatchObject({
        status: 409,
        message: HRW_MESSAGES.aenAfterAssessment("2026-12-06"),
      });
    expect((await getHrwAssessment(db, id))!.history).toEqual([]);
    // a later AEN does not move the day the first was recorded
    await recordCandidateCheck(db, candidate, { kind: "aen", state: "NSW", aen: "AEN7654322" }, trainer.id, at("2026-12-08"));
    await recordNotice(db, id, { notice_reference: "SNSW-3", held_on: "2026-12-06", sent_on: "2026-11-27" }, trainer.id, at("2026-12-08"));
    await recordPartResult(db, id, part("knowledge", "2026-12-06"), trainer.id, at("2026-12-08"));
    expect((await getHrwAssessment(db, id))!.history).toHaveLength(1);
  });

  it("a part held on a day the regulator's scheduling does not cover, a reassessment included, needs that day scheduled 7 days ahead", async () => {
    const trainer = await assessor("NSW", ["CN"]);
    const { id, candidate } = await book("NSW", "CN", trainer.id, "2026-11-08", "2026-10-20");
    await recordCandidateCheck(db, candidate, { kind: "aen", state: "NSW", aen: "AEN5550001" }, trainer.id, at("2026-10-20"));
    await recordNotice(db, id, { notice_reference: "SNSW-8", sent_on: "2026-10-20" }, trainer.id, at("2026-10-20"));
    await recordPartResult(db, id, part("knowledge", "2026-11-08"), trainer.id, at("2026-11-08"));
    await recordPartResult(db, id, part("calculations", "2026-11-08"), trainer.id, at("2026-11-08"));
    await recordPartResult(db, id, { ...part("practical", "2026-11-08"), result: "not_yet_satisfactory" }, trainer.id, at("2026-11-08"));
    // the practical reassessed on 10 Nov under the 8 Nov scheduling only
    await expect(recordPartResult(db, id, part("practical", "2026-11-10"), trainer.id, at("2026-11-10"))).rejects.toMatchObject({
      status: 409,
      message: HRW_MESSAGES.scheduledDayNotice("2026-11-10"),
    });
    // scheduled on 4 Nov: 7 days ahead of 10 Nov was 3 Nov
    await expect(
      recordNotice(db, id, { notice_reference: "SNSW-9", held_on: "2026-11-10", sent_on: "2026-11-04" }, trainer.id, at("2026-11-10")),
    ).rejects.toMatchObject({ status: 409, message: HRW_MESSAGES.noticeLate("2026-11-10", "2026-11-03") });
    await recordNotice(db, id, { notice_reference: "SNSW-9", held_on: "2026-11-10", sent_on: "2026-11-03" }, trainer.id, at("2026-11-03"));
    await recordPartResult(db, id, part("practical", "2026-11-10"), trainer.id, at("2026-11-10"));
    expect((await getHrwAssessment(db, id))!.stage).toBe("satisfactory");
  });

  it("books at least 7 days ahead and moves a booking no later than 48 hours before it starts", async () => {
    const trainer = await assessor("NSW", ["CN"]);
    await expect(book("NSW", "CN", trainer.id, "2026-12-03", "2026-11-27")).rejects.toMatchObject({
      status: 422,
      message: HRW_MESSAGES.bookingLead(7, "2026-12-04"),
    });
    const { id } = await book("NSW", "CN", trainer.id, "2026-12-04", "2026-11-27");
    expect((await getHrwAssessment(db, id))!.notice_due_on).toBe("2026-11-27");
    // 8:00 on 4 Dec in Sydney is 21:00 UTC on 3 Dec; 48 hours before is 21:00 UTC on 1 Dec
    await expect(
      rescheduleAssessment(db, id, { assessment_date: "2026-12-11", start_time: "09:00" }, trainer.id, at("2026-12-01", "21:01")),
    ).rejects.toMatchObject({ status: 409, message: HRW_MESSAGES.changeLead(48) });
    await expect(
      rescheduleAssessment(db, id, { assessment_date: "2026-12-05", start_time: "09:00" }, trainer.id, at("2026-12-01", "20:59")),
    ).rejects.toMatchObject({ status: 422 });
    await rescheduleAssessment(db, id, { assessment_date: "2026-12-11", start_time: "09:00" }, trainer.id, at("2026-12-01", "20:59"));
    expect(await getHrwAssessment(db, id)).toMatchObject({ assessment_date: "2026-12-11", start_time: "09:00", notice_due_on: "2026-12-04" });
  });

  it("an assessor who stops (deactivated, or an accreditation removed) raises 'tell the regulator within 14 days' until it is recorded", async () => {
    const trainer = await assessor("NSW", ["CN"], "2023-01-01", "2099-12-31");
    const other = await assessor("QLD", ["CN"], "2023-01-01", "2099-12-31");
    await setStaffActive(db, { id: trainer.id, active: false, actorId: admin.id }, at("2026-11-27"));
    await setStaffActive(db, { id: other.id, active: false, actorId: admin.id }, at("2026-11-27"));
    const open = await listRegulatorTasks(db, { trainerId: trainer.id, open: true });
    expect(open).toMatchObject([{ state: "NSW", raised_on: "2026-11-27", due_on: "2026-12-11", done_at: null }]);
    // QLD's rules ask nothing of the kind
    expect(await listRegulatorTasks(db, { trainerId: other.id })).toEqual([]);
    await completeRegulatorTask(db, open[0]!.id, "SafeWork NSW ref 55012", admin.id);
    expect(await listRegulatorTasks(db, { trainerId: trainer.id, open: true })).toEqual([]);
    await expect(completeRegulatorTask(db, open[0]!.id, "again", admin.id)).rejects.toMatchObject({ status: 409 });

    const third = await assessor("NSW", ["DG"], "2023-01-01", "2099-12-31");
    const accreditation = await db.selectFrom("hrw_accreditations").select("id").where("trainer_id", "=", third.id).executeTakeFirstOrThrow();
    await removeAccreditation(db, third.id, accreditation.id, admin.id, at("2026-11-27"));
    expect(await listRegulatorTasks(db, { trainerId: third.id, open: true })).toMatchObject([
      { state: "NSW", due_on: "2026-12-11", what: expect.stringContaining("removed") },
    ]);
  });
});

describe("QLD", () => {
  it("each part on a non-consecutive day needs its own notice 3 business days ahead; a reassessment needs its own too", async () => {
    const trainer = await assessor("QLD", ["CN"]);
    const { id } = await book("QLD", "CN", trainer.id, "2026-12-07", "2026-11-20");
    await recordNotice(db, id, { notice_reference: "WHSQ-1", sent_on: "2026-12-01" }, trainer.id, at("2026-12-01"));
    // knowledge on Mon 7 Dec, calculations on Tue 8 (consecutive: the same notice)
    await recordPartResult(db, id, part("knowledge", "2026-12-07"), trainer.id, at("2026-12-10"));
    await recordPartResult(db, id, part("calculations", "2026-12-08"), trainer.id, at("2026-12-10"));
    // practical on Thu 10 Dec: a day apart, its own notice, due by Mon 7 Dec
    await expect(
      recordPartResult(db, id, { ...part("practical", "2026-12-10"), result: "not_yet_satisfactory" }, trainer.id, at("2026-12-10")),
    ).rejects.toMatchObject({ status: 409, message: HRW_MESSAGES.dayNotice("2026-12-10") });
    await expect(
      recordNotice(db, id, { notice_reference: "WHSQ-2", held_on: "2026-12-10", sent_on: "2026-12-08" }, trainer.id, at("2026-12-10")),
    ).rejects.toMatchObject({ status: 409, message: HRW_MESSAGES.noticeLate("2026-12-10", "2026-12-07") });
    await recordNotice(db, id, { notice_reference: "WHSQ-2", held_on: "2026-12-10", sent_on: "2026-12-07" }, trainer.id, at("2026-12-10"));
    await recordPartResult(db, id, { ...part("practical", "2026-12-10"), result: "not_yet_satisfactory" }, trainer.id, at("2026-12-10"));
    // the practical reassessed the next day is still a reassessment: its own notice
    await expect(recordPartResult(db, id, part("practical", "2026-12-11"), trainer.id, at("2026-12-11"))).rejects.toMatchObject({
      status: 409,
      message: HRW_MESSAGES.reassessmentNotice("2026-12-11"),
    });
    await expect(recordPartResult(db, id, part("practical", "2026-12-16"), trainer.id, at("2026-12-16"))).rejects.toMatchObject({
      status: 409,
      message: HRW_MESSAGES.reassessmentNotice("2026-12-16"),
    });
    await recordNotice(db, id, { notice_reference: "WHSQ-3", held_on: "2026-12-16", sent_on: "2026-12-11" }, trainer.id, at("2026-12-11"));
    await recordPartResult(db, id, part("practical", "2026-12-16"), trainer.id, at("2026-12-16"));
    const view = (await getHrwAssessment(db, id))!;
    expect(view.stage).toBe("satisfactory");
    expect(view.notices.map((n) => [n.held_on, n.reference])).toEqual([
      ["2026-12-07", "WHSQ-1"],
      ["2026-12-10", "WHSQ-2"],
      ["2026-12-16", "WHSQ-3"],
    ]);
  });

  it("business days skip Queensland's public holidays", async () => {
    const trainer = await assessor("QLD", ["CN"]);
    // Mon 4 May 2026 is Labour Day in Queensland: 3 business days before Wed 6 May is Thu 30 Apr
    const { id } = await book("QLD", "CN", trainer.id, "2026-05-06", "2026-04-01");
    expect((await getHrwAssessment(db, id))!.notice_due_on).toBe("2026-04-30");
  });
});

describe("the regulator's notice against the booking", () => {
  it("a notice cannot be dated before the booking was made (organisation day) nor in the future", async () => {
    const trainer = await assessor("QLD", ["CN"]);
    // booked at 20:00 UTC on 19 Nov: 20 Nov in Brisbane
    const course = await licenceCourse("CN");
    const candidate = await readyCandidate();
    const { id } = await bookAssessment(
      db,
      {
        candidate_id: candidate.id,
        course_id: course.id,
        assessor_id: trainer.id,
        state: "QLD",
        assessment_date: "2026-12-07",
        start_time: "08:00",
        location_id: locationId,
        plant_description: "Franna AT-20",
        plant_registration: "XN-42",
      },
      admin.id,
      at("2026-11-19", "20:00"),
    );
    await expect(recordNotice(db, id, { notice_reference: "WHSQ-B1", sent_on: "2026-11-19" }, trainer.id, at("2026-11-25"))).rejects.toMatchObject({
      status: 422,
      fieldErrors: { sent_on: HRW_MESSAGES.noticeSentBeforeBooked("2026-11-20") },
    });
    await expect(recordNotice(db, id, { notice_reference: "WHSQ-B1", sent_on: "2026-11-26" }, trainer.id, at("2026-11-25"))).rejects.toMatchObject({
      status: 422,
      fieldErrors: { sent_on: HRW_MESSAGES.noticeSentFuture },
    });
    expect((await getHrwAssessment(db, id))!.notices).toEqual([]);
    await recordNotice(db, id, { notice_reference: "WHSQ-B1", sent_on: "2026-11-20" }, trainer.id, at("2026-11-25"));
    expect((await getHrwAssessment(db, id))!.notices).toMatchObject([{ reference: "WHSQ-B1", sent_on: "2026-11-20" }]);
  });

  it("QLD: a booking made after its 3-business-day notice deadline is refused, saying by when the notice was due", async () => {
    const trainer = await assessor("QLD", ["CN"]);
    // Thu 10 Dec: 3 business days before is Mon 7 Dec; booked on Tue 8 Dec it would be late
    await expect(book("QLD", "CN", trainer.id, "2026-12-10", "2026-12-08")).rejects.toMatchObject({
      status: 422,
      fieldErrors: { assessment_date: HRW_MESSAGES.noticeWouldBeLate("2026-12-07") },
    });
    // Fri 11 Dec: due Tue 8 Dec, the day of booking
    const { id } = await book("QLD", "CN", trainer.id, "2026-12-11", "2026-12-08");
    expect((await getHrwAssessment(db, id))!.notice_due_on).toBe("2026-12-08");
    // moving it to Thu 10 Dec would make its notice late as well
    await expect(rescheduleAssessment(db, id, { assessment_date: "2026-12-10", start_time: "08:00" }, trainer.id, at("2026-12-08"))).rejects.toMatchObject({
      status: 422,
      fieldErrors: { assessment_date: HRW_MESSAGES.noticeWouldBeLate("2026-12-07") },
    });
  });

  it("WA: the notice is due before any assessment, so a booking for the same day is taken and its notice given that day", async () => {
    const trainer = await assessor("WA", ["CN"]);
    const { id } = await book("WA", "CN", trainer.id, "2026-12-08", "2026-12-08");
    expect((await getHrwAssessment(db, id))!.notice_due_on).toBe("2026-12-08");
    await expect(recordNotice(db, id, { notice_reference: "WSWA-0", sent_on: "2026-12-07" }, trainer.id, at("2026-12-08"))).rejects.toMatchObject({
      status: 422,
      fieldErrors: { sent_on: HRW_MESSAGES.noticeSentBeforeBooked("2026-12-08") },
    });
    await recordNotice(db, id, { notice_reference: "WSWA-0", sent_on: "2026-12-08" }, trainer.id, at("2026-12-08"));
    await recordPartResult(db, id, part("knowledge", "2026-12-08"), trainer.id, at("2026-12-08", "06:00"));
    expect((await getHrwAssessment(db, id))!.history).toHaveLength(1);
  });
});

describe("WA", () => {
  it("an assessor accredited for RA cannot assess RB from January 2025; before it, a higher class implied the lower", async () => {
    const trainer = await assessor("WA", ["RA"]);
    const recordedBy = at("2026-12-01").toISOString();
    expect(await coveringAccreditation(db, { trainerId: trainer.id, state: "WA", licenceClass: "RB", date: "2025-01-01", recordedBy })).toBeNull();
    expect(await coveringAccreditation(db, { trainerId: trainer.id, state: "WA", licenceClass: "RB", date: "2024-12-31", recordedBy })).not.toBeNull();
    expect(await coveringAccreditation(db, { trainerId: trainer.id, state: "WA", licenceClass: "RA", date: "2025-06-01", recordedBy })).not.toBeNull();
    const { id } = await book("WA", "RB", trainer.id, "2026-12-07", "2026-11-20");
    // WA asks for a notice before any assessment, with no lead time
    expect((await getHrwAssessment(db, id))!.notice_due_on).toBe("2026-12-07");
    await expect(recordPartResult(db, id, part("knowledge", "2026-12-07"), trainer.id, at("2026-12-08"))).rejects.toMatchObject({
      status: 409,
      message: HRW_MESSAGES.noticeMissing("2026-12-07"),
    });
    await recordNotice(db, id, { notice_reference: "WSWA-1", sent_on: "2026-12-01" }, trainer.id, at("2026-12-01"));
    await expect(recordPartResult(db, id, part("knowledge", "2026-12-07"), trainer.id, at("2026-12-08"))).rejects.toMatchObject({
      status: 409,
      message: HRW_MESSAGES.notCovered("RB", "2026-12-07"),
    });
  });
});

describe("assessor currency", () => {
  it("counts each class's assessments and hours over the state's 3 years and lapses when the window leaves them behind", async () => {
    const trainer = await assessor("QLD", ["CN", "C2"], "2023-01-01", "2029-12-31");
    const candidate = (await readyCandidate()).id;
    // nine CN assessments, the oldest on 10 Jan 2024, 2 hours each
    const dates = ["2024-01-10", "2024-06-03", "2024-09-02", "2025-01-13", "2025-04-07", "2025-08-04", "2025-11-03", "2026-02-02", "2026-05-04"];
    for (const date of dates) {
      const { id } = await book("QLD", "CN", trainer.id, date, "2023-12-01", candidate, 2);
      await recordNotice(db, id, { notice_reference: `N-${date}`, sent_on: "2023-12-01" }, trainer.id, at("2023-12-01"));
      await recordPartResult(db, id, part("knowledge", date), trainer.id, at(date, "06:00"));
    }
    // a booking with no result does not count
    await book("QLD", "CN", trainer.id, "2026-06-01", "2023-12-01", candidate, 8);
    const on = async (date: string) => (await assessorCurrency(db, trainer.id, date)).find((c) => c.licence_class === "CN")!;
    expect(await on("2026-06-01")).toMatchObject({
      state: "QLD",
      assessments: 9,
      hours: 18,
      needs: { assessments: 9, hours: 35, years: 3 },
      current_until: "2027-01-09",
      status: "current",
    });
    expect((await on("2026-10-11")).status).toBe("lapsing");
    expect(await on("2027-01-09")).toMatchObject({ assessments: 9, status: "lapsing" });
    expect(await on("2027-01-10")).toMatchObject({ assessments: 8, current_until: null, status: "lapsed" });
    expect((await assessorCurrency(db, trainer.id, "2026-06-01")).find((c) => c.licence_class === "C2")).toMatchObject({ assessments: 0, status: "lapsed" });

    // 35 hours meet the rule on their own
    const c2 = await readyCandidate();
    for (const [date, hours] of [
      ["2026-01-05", 20],
      ["2026-03-02", 15],
    ] as const) {
      const { id } = await book("QLD", "C2", trainer.id, date, "2025-12-01", c2.id, hours);
      await recordNotice(db, id, { notice_reference: `N2-${date}`, sent_on: "2025-12-01" }, trainer.id, at("2025-12-01"));
      await recordPartResult(db, id, part("knowledge", date), trainer.id, at(date, "06:00"));
    }
    expect((await assessorCurrency(db, trainer.id, "2026-06-01")).find((c) => c.licence_class === "C2")).toMatchObject({
      assessments: 2,
      hours: 35,
      current_until: "2029-01-04",
      status: "current",
    });
  });
});

describe("the candidate's licence deadline", () => {
  it("is the NSA date plus the state's window, with the state's words for where to apply", async () => {
    const trainer = await assessor("NSW", ["DG"]);
    const { id, candidate } = await book("NSW", "DG", trainer.id, "2026-12-07", "2026-11-20");
    await recordCandidateCheck(db, candidate, { kind: "aen", state: "NSW", aen: "AEN7654321" }, trainer.id, at("2026-11-20"));
    await recordNotice(db, id, { notice_reference: "SNSW-9", sent_on: "2026-11-20" }, trainer.id, at("2026-11-20"));
    for (const p of ["knowledge", "calculations", "practical"] as const)
      await recordPartResult(db, id, part(p, "2026-12-07"), trainer.id, at("2026-12-07", "05:00"));
    await recordNsa(db, id, { nsa_number: `NSA-${id.slice(0, 8)}`, nsa_date: "2026-12-08" }, trainer.id, at("2026-12-08"));
    expect(await licenceApplicationsDue(db, candidate, "2026-12-10")).toMatchObject([
      { state: "NSW", deadline: "2027-02-06", apply_where: "through Service NSW (apply for a high risk work licence)" },
    ]);
    await editRule(
      db,
      { state: "NSW", rule: "nsa_application_days", value: "90", in_force_from: "2026-12-01", reason: "Test of a longer window", source: null },
      admin.id,
    );
    expect(await licenceApplicationsDue(db, candidate, "2026-12-10")).toMatchObject([{ deadline: "2027-03-08" }]);
    await editRule(
      db,
      { state: "NSW", rule: "nsa_application_days", value: "60", in_force_from: "2026-12-01", reason: "Back to the regulator's 60 days", source: null },
      admin.id,
    );
  });
});
