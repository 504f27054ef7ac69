import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "#db/connection";
import { createTestDb, TEST_DIALECT } from "../../../tests/support/test-db";
import { makeCourse, makeUser } from "../../../tests/support/factories";
import { deliverDueMail } from "~/jobs/deliver-mail.server";
import type { Mailer, MailMessage } from "~/mail/transport.server";
import { HRW_MESSAGES, identityPoints, prerequisitesOf } from "~/schemas/hrw-codes";
import { addDays } from "~/utils/organisation-calendar";
import { ageOn, businessDaysBefore } from "./hrw-calendar.server";
import { getCandidateChecks, missingChecks, recordCandidateCheck } from "./hrw-candidate.server";
import {
  bookAssessment,
  getHrwAssessment,
  hrwReportRow,
  licenceApplicationsDue,
  listHrwAssessments,
  noticesDue,
  recordNotice,
  recordNsa,
  recordPartResult,
} from "./hrw-assessment.server";
import { queueDueReminders, remindersSent } from "./hrw-reminders.server";
import { addAccreditation, coveringAccreditation, expiryWarnings, removeAccreditation, setAssessorLicence } from "./hrw-register.server";
import { editRule } from "./hrw-rules.server";

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
let locationId: string;
let admin: { id: string };

beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
  admin = await makeUser(db, { role: "admin" });
  locationId = crypto.randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto("delivery_locations")
    .values({
      id: locationId,
      identifier: `HRW${locationId.slice(0, 6)}`,
      name: "Brisbane yard",
      suburb: "Eagle Farm",
      postcode: "4009",
      state: "03",
      country: "1101",
      created_at: at,
      updated_at: at,
    })
    .execute();
});
afterAll(() => cleanup());

const at = (date: string) => new Date(`${date}T02:00:00Z`);

async function licenceCourse(licenceClass: string, prerequisites: string[] | null = null) {
  const course = await makeCourse(db, { name: `${licenceClass} course` });
  await db
    .updateTable("courses")
    .set({ licence_class: licenceClass, licence_prerequisites: prerequisites && JSON.stringify(prerequisites) })
    .where("id", "=", course.id)
    .execute();
  return course;
}

/** A student whose age and identity checks are complete (born 1990). */
async function readyCandidate(prerequisites: Array<{ cls: "DG" | "RB" | "RI"; expires_on: string }> = []) {
  const student = await makeUser(db, { role: "student" });
  await recordCandidateCheck(db, student.id, { kind: "age", date_of_birth: "1990-05-01" }, admin.id);
  await recordCandidateCheck(db, student.id, { kind: "identity", documents: ["passport", "driver_licence"] }, admin.id);
  for (const p of prerequisites)
    await recordCandidateCheck(
      db,
      student.id,
      { kind: "prerequisite", licence_class: p.cls, licence_number: `L${p.cls}1`, expires_on: p.expires_on },
      admin.id,
    );
  return student;
}

/** A trainer with accreditation periods starting in 2024, recorded on 1 Nov 2026 unless told. */
async function assessorWith(
  accreditations: Array<{ regulator: "QLD" | "NSW"; classes: Array<"CN" | "C2" | "DG" | "RB">; expires_on: string; starts_on?: string }>,
  recorded = at("2026-11-01"),
) {
  const trainer = await makeUser(db, { role: "trainer" });
  for (const a of accreditations)
    await addAccreditation(db, trainer.id, { starts_on: "2024-01-01", ...a, number: `ACC-${crypto.randomUUID().slice(0, 8)}` }, admin.id, recorded);
  return trainer;
}

const booking = (input: { candidate: string; course: string; assessor: string; date: string; state?: "QLD" | "NSW" | "VIC" }) => ({
  candidate_id: input.candidate,
  course_id: input.course,
  assessor_id: input.assessor,
  state: input.state ?? "QLD",
  assessment_date: input.date,
  start_time: "08:00",
  location_id: locationId,
  plant_description: "Franna AT-20 pick-and-carry",
  plant_registration: "123ABC",
});

describe("business days before an assessment", () => {
  it("counts back over a weekend and the state's public holidays", () => {
    // Monday 7 Dec 2026, 3 business days: Fri 4, Thu 3, Wed 2
    expect(businessDaysBefore("2026-12-07", 3, "QLD")).toBe("2026-12-02");
    // Wednesday 28 Jan 2026: Tue 27, (Mon 26 Australia Day, weekend), Fri 23, Thu 22
    expect(businessDaysBefore("2026-01-28", 3, "QLD")).toBe("2026-01-22");
    // Melbourne Cup (Tue 3 Nov 2026) is a holiday in Victoria, not in Queensland
    expect(businessDaysBefore("2026-11-05", 3, "VIC")).toBe("2026-10-30");
    expect(businessDaysBefore("2026-11-05", 3, "QLD")).toBe("2026-11-02");
    expect(businessDaysBefore("2026-11-05", 0, "QLD")).toBe("2026-11-05");
  });

  it("a booking takes its notice deadline from the state's rules, which an administrator edits from a date with a reason", async () => {
    const course = await licenceCourse("CN");
    const candidate = await readyCandidate();
    const assessor = await assessorWith([{ regulator: "QLD", classes: ["CN"], expires_on: "2027-12-31" }]);
    const qld = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-12-07" }),
      admin.id,
      at("2026-11-20"),
    );
    expect((await getHrwAssessment(db, qld.id))!.notice_due_on).toBe("2026-12-02");
    expect((await noticesDue(db, assessor.id)).map((n) => n.notice_due_on)).toEqual(["2026-12-02"]);
    const vic = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-12-07", state: "VIC" }),
      admin.id,
      at("2026-11-20"),
    );
    expect((await getHrwAssessment(db, vic.id))!.notice_due_on).toBeNull();
    await editRule(
      db,
      { state: "VIC", rule: "notice_business_days", value: "2", in_force_from: "2026-12-05", reason: "WorkSafe asked us to notify", source: null },
      admin.id,
    );
    const vic2 = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-12-07", state: "VIC" }),
      admin.id,
      at("2026-11-20"),
    );
    expect((await getHrwAssessment(db, vic2.id))!.notice_due_on).toBe("2026-12-03");
    // an assessment before the rule came into force is judged by the rule of its day
    const vic3 = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-12-04", state: "VIC" }),
      admin.id,
      at("2026-11-20"),
    );
    expect((await getHrwAssessment(db, vic3.id))!.notice_due_on).toBeNull();
    await editRule(
      db,
      { state: "VIC", rule: "notice_business_days", value: "", in_force_from: "2026-12-06", reason: "Entered in error", source: null },
      admin.id,
    );
  });
});

describe("candidate checks", () => {
  it("evidence of identity must add up to 100 points, each document counted once", async () => {
    const student = await makeUser(db, { role: "student" });
    expect(identityPoints(["medicare_card", "medicare_card", "medicare_card", "medicare_card"])).toBe(25);
    await expect(recordCandidateCheck(db, student.id, { kind: "identity", documents: ["driver_licence", "medicare_card"] }, admin.id)).rejects.toMatchObject({
      status: 422,
      message: "The documents sighted add up to 65 points; 100 are needed",
    });
    await expect(recordCandidateCheck(db, student.id, { kind: "identity", documents: ["passport", "medicare_card"] }, admin.id)).rejects.toMatchObject({
      status: 422,
    });
    expect((await getCandidateChecks(db, student.id))!.identity).toBeNull();
    await recordCandidateCheck(db, student.id, { kind: "identity", documents: ["passport", "medicare_card", "bank_card"] }, admin.id);
    expect((await getCandidateChecks(db, student.id))!.identity).toMatchObject({ points: 120, documents: ["passport", "medicare_card", "bank_card"] });
  });

  it("age is judged on the assessment date; booking is refused and names every missing check", async () => {
    expect(ageOn("2008-12-08", "2026-12-07")).toBe(17);
    expect(ageOn("2008-12-07", "2026-12-07")).toBe(18);
    const course = await licenceCourse("RB");
    expect(prerequisitesOf({ licence_class: "RB", licence_prerequisites: null })).toEqual(["DG"]);
    expect(prerequisitesOf({ licence_class: "RA", licence_prerequisites: null })).toEqual(["RI"]);
    expect(prerequisitesOf({ licence_class: "RB", licence_prerequisites: "[]" })).toEqual([]);
    const assessor = await assessorWith([{ regulator: "QLD", classes: ["RB"], expires_on: "2027-12-31" }]);
    const student = await makeUser(db, { role: "student" });
    const book = () =>
      bookAssessment(db, booking({ candidate: student.id, course: course.id, assessor: assessor.id, date: "2026-12-07" }), admin.id, at("2026-11-20"));
    await expect(book()).rejects.toMatchObject({
      status: 409,
      message: "The candidate's checks are incomplete: age (date of birth) not checked; evidence of identity not sighted; DG licence not recorded",
    });
    await recordCandidateCheck(db, student.id, { kind: "age", date_of_birth: "2008-12-08" }, admin.id);
    await recordCandidateCheck(db, student.id, { kind: "identity", documents: ["birth_certificate", "driver_licence"] }, admin.id);
    await recordCandidateCheck(db, student.id, { kind: "prerequisite", licence_class: "DG", licence_number: "DG123", expires_on: "2026-12-06" }, admin.id);
    await expect(book()).rejects.toMatchObject({
      message: "The candidate's checks are incomplete: not 18 or older on 7 Dec 2026; DG licence expires before 7 Dec 2026",
    });
    await recordCandidateCheck(db, student.id, { kind: "age", date_of_birth: "2008-12-07" }, admin.id);
    await recordCandidateCheck(db, student.id, { kind: "prerequisite", licence_class: "DG", licence_number: "DG123", expires_on: "2031-01-01" }, admin.id);
    expect(await missingChecks(db, student.id, { date: "2026-12-07", prerequisites: ["DG"] })).toEqual([]);
    const checks = (await getCandidateChecks(db, student.id))!;
    expect(checks.age).toMatchObject({ date_of_birth: "2008-12-07", checked_by: expect.any(String), checked_at: expect.any(String) });
    await expect(book()).resolves.toMatchObject({ id: expect.any(String) });
  });
});

describe("recording results", () => {
  it("only a current accreditation covering the class in the booking's state on the day assessed", async () => {
    const course = await licenceCourse("CN");
    const candidate = await readyCandidate();
    const assessor = await assessorWith([
      { regulator: "QLD", classes: ["CN"], expires_on: "2026-12-10" },
      { regulator: "QLD", classes: ["C2"], expires_on: "2028-01-01" },
      { regulator: "NSW", classes: ["CN"], expires_on: "2028-01-01" },
    ]);
    const { id } = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-12-09" }),
      admin.id,
      at("2026-11-20"),
    );
    for (const held_on of ["2026-12-09", "2026-12-10", "2026-12-12"])
      await recordNotice(db, id, { notice_reference: `QLD-N-${held_on}`, held_on }, assessor.id, at("2026-11-20"));
    const now = at("2026-12-20");
    await recordPartResult(db, id, { part: "knowledge", result: "satisfactory", assessed_on: "2026-12-10" }, assessor.id, now);
    await expect(recordPartResult(db, id, { part: "practical", result: "satisfactory", assessed_on: "2026-12-12" }, assessor.id, now)).rejects.toMatchObject({
      status: 409,
      message: "Your accreditation does not cover CN on 12 Dec 2026",
    });
    const recordedBy = now.toISOString();
    expect(await coveringAccreditation(db, { trainerId: assessor.id, state: "QLD", licenceClass: "CN", date: "2026-12-10", recordedBy })).not.toBeNull();
    expect(await coveringAccreditation(db, { trainerId: assessor.id, state: "QLD", licenceClass: "CN", date: "2026-12-11", recordedBy })).toBeNull();
    expect(await coveringAccreditation(db, { trainerId: assessor.id, state: "NSW", licenceClass: "CN", date: "2026-12-11", recordedBy })).not.toBeNull();
    expect(await coveringAccreditation(db, { trainerId: assessor.id, state: "QLD", licenceClass: "C6", date: "2026-12-01", recordedBy })).toBeNull();
    const view = (await getHrwAssessment(db, id))!;
    expect(view.history).toHaveLength(1);
    expect(view.accreditation_number).toMatch(/^ACC-/);
  });

  it("a missing regulator notice blocks results, and only the booked assessor records them", async () => {
    const course = await licenceCourse("CN");
    const candidate = await readyCandidate();
    const assessor = await assessorWith([{ regulator: "QLD", classes: ["CN"], expires_on: "2028-01-01" }]);
    const other = await assessorWith([{ regulator: "QLD", classes: ["CN"], expires_on: "2028-01-01" }]);
    const { id } = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-12-07" }),
      admin.id,
      at("2026-11-20"),
    );
    const now = at("2026-12-20");
    const part = { part: "knowledge" as const, result: "satisfactory" as const, assessed_on: "2026-12-07" };
    await expect(recordPartResult(db, id, part, assessor.id, now)).rejects.toMatchObject({ status: 409, message: HRW_MESSAGES.dayNotice("2026-12-07") });
    await expect(recordNotice(db, id, { notice_reference: "N-1" }, other.id, at("2026-11-20"))).rejects.toMatchObject({ status: 403 });
    await expect(recordNotice(db, id, { notice_reference: "N-1" }, admin.id, at("2026-11-20"))).rejects.toMatchObject({ status: 403 });
    await recordNotice(db, id, { notice_reference: "N-1" }, assessor.id, at("2026-11-20"));
    expect(await noticesDue(db, assessor.id)).toEqual([]);
    await expect(recordPartResult(db, id, part, other.id, now)).rejects.toMatchObject({ status: 403 });
    await expect(recordPartResult(db, id, { ...part, assessed_on: "2026-12-06" }, assessor.id, now)).rejects.toMatchObject({ status: 422 });
    await recordPartResult(db, id, part, assessor.id, now);
    expect((await getHrwAssessment(db, id))!.stage).toBe("in_progress");
  });

  it("a part may be reassessed, history kept; all three satisfactory allow a unique NSA and start the 60-day clock", async () => {
    const course = await licenceCourse("CN");
    const candidate = await readyCandidate();
    const assessor = await assessorWith([{ regulator: "QLD", classes: ["CN"], expires_on: "2028-01-01" }]);
    const { id } = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-12-07" }),
      admin.id,
      at("2026-11-20"),
    );
    await recordNotice(db, id, { notice_reference: "N-2" }, assessor.id, at("2026-11-20"));
    const now = at("2026-12-20");
    let minute = 0;
    const record = (part: "knowledge" | "calculations" | "practical", result: "satisfactory" | "not_yet_satisfactory", assessed_on: string) =>
      recordPartResult(db, id, { part, result, assessed_on }, assessor.id, new Date(now.getTime() + ++minute * 60_000));
    await record("knowledge", "satisfactory", "2026-12-07");
    await record("calculations", "satisfactory", "2026-12-07");
    await record("practical", "not_yet_satisfactory", "2026-12-07");
    expect((await getHrwAssessment(db, id))!.stage).toBe("not_yet_satisfactory");
    await expect(recordNsa(db, id, { nsa_number: "NSA-1", nsa_date: "2026-12-14" }, assessor.id, now)).rejects.toMatchObject({
      status: 409,
      message: "An NSA can be issued only when all three parts are satisfactory",
    });
    await expect(record("practical", "satisfactory", "2026-12-14")).rejects.toMatchObject({
      status: 409,
      message: HRW_MESSAGES.reassessmentNotice("2026-12-14"),
    });
    await recordNotice(db, id, { notice_reference: "N-2b", held_on: "2026-12-14" }, assessor.id, at("2026-11-20"));
    await record("practical", "satisfactory", "2026-12-14");
    const view = (await getHrwAssessment(db, id))!;
    expect(view.stage).toBe("satisfactory");
    expect(view.history.map((p) => `${p.part}:${p.result}`)).toEqual([
      "knowledge:satisfactory",
      "calculations:satisfactory",
      "practical:not_yet_satisfactory",
      "practical:satisfactory",
    ]);
    await expect(recordNsa(db, id, { nsa_number: "NSA-1", nsa_date: "2026-12-13" }, assessor.id, now)).rejects.toMatchObject({ status: 422 });
    await recordNsa(db, id, { nsa_number: `NSA-${id.slice(0, 8)}`, nsa_date: "2026-12-15" }, assessor.id, now);
    await expect(record("knowledge", "satisfactory", "2026-12-15")).rejects.toMatchObject({ status: 409 });
    expect(await licenceApplicationsDue(db, candidate.id, "2026-12-20")).toEqual([
      {
        id,
        licence_class: "CN",
        state: "QLD",
        nsa_number: `NSA-${id.slice(0, 8)}`,
        deadline: "2027-02-13",
        apply_where: "online with WorkSafe Queensland, using your Queensland Digital Identity",
      },
    ]);
    expect(await licenceApplicationsDue(db, candidate.id, "2027-02-14")).toEqual([]);

    // NSA numbers are unique
    const second = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-12-08" }),
      admin.id,
      at("2026-11-20"),
    );
    await recordNotice(db, second.id, { notice_reference: "N-3" }, assessor.id, at("2026-11-20"));
    for (const part of ["knowledge", "calculations", "practical"] as const)
      await recordPartResult(db, second.id, { part, result: "satisfactory", assessed_on: "2026-12-08" }, assessor.id, now);
    await expect(recordNsa(db, second.id, { nsa_number: `NSA-${id.slice(0, 8)}`, nsa_date: "2026-12-15" }, assessor.id, now)).rejects.toMatchObject({
      status: 409,
      message: "Another assessment already has this NSA number",
    });

    const report = await listHrwAssessments(db, { from: "2026-12-07", to: "2026-12-07", assessorId: assessor.id });
    expect(report.map((r) => r.id)).toEqual([id]);
    expect(report[0]).toMatchObject({ nsa_number: `NSA-${id.slice(0, 8)}`, plant_registration: "123ABC", location: { name: "Brisbane yard" } });
  });
});

describe("accreditation periods", () => {
  const refusedOn = (date: string) => ({ status: 409, message: `Your accreditation does not cover RB on ${date}` });

  it("an accreditation renewed late does not cover the days it had lapsed, before or after the renewal is recorded", async () => {
    const course = await licenceCourse("RB");
    const candidate = await readyCandidate([{ cls: "DG", expires_on: "2030-01-01" }]);
    const assessor = await makeUser(db, { role: "trainer" });
    const number = `VIC-RB-${assessor.id.slice(0, 6)}`;
    // the RB accreditation lapsed on 8 Nov
    await addAccreditation(
      db,
      assessor.id,
      { regulator: "VIC", number, classes: ["DG", "RB"], starts_on: "2023-11-09", expires_on: "2026-11-08" },
      admin.id,
      at("2026-10-01"),
    );
    const { id } = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-11-26", state: "VIC" }),
      admin.id,
      at("2026-11-20"),
    );
    const knowledgeOn26 = { part: "knowledge" as const, result: "satisfactory" as const, assessed_on: "2026-11-26" };
    await expect(recordPartResult(db, id, knowledgeOn26, assessor.id, at("2026-11-26"))).rejects.toMatchObject(refusedOn("26 Nov 2026"));

    // renewed on 27 Nov, by the same number and by a new one: neither reaches back to 26 Nov
    await addAccreditation(
      db,
      assessor.id,
      { regulator: "VIC", number, classes: ["DG", "RB"], starts_on: "2026-11-27", expires_on: "2029-11-26" },
      admin.id,
      at("2026-11-27"),
    );
    await addAccreditation(
      db,
      assessor.id,
      { regulator: "VIC", number: `${number}-B`, classes: ["RB"], starts_on: "2026-11-27", expires_on: "2029-11-26" },
      admin.id,
      at("2026-11-27"),
    );
    const later = new Date(at("2026-11-27").getTime() + 3600_000);
    await expect(recordPartResult(db, id, knowledgeOn26, assessor.id, later)).rejects.toMatchObject(refusedOn("26 Nov 2026"));
    expect(await db.selectFrom("hrw_assessment_parts").select("id").where("assessment_id", "=", id).execute()).toHaveLength(0);

    // the earlier period is kept beside the renewal, and the renewal covers its own days
    const periods = await db.selectFrom("hrw_accreditations").select(["starts_on", "expires_on"]).where("number", "=", number).orderBy("starts_on").execute();
    expect(periods).toEqual([
      { starts_on: "2023-11-09", expires_on: "2026-11-08" },
      { starts_on: "2026-11-27", expires_on: "2029-11-26" },
    ]);
    await recordPartResult(db, id, { ...knowledgeOn26, assessed_on: "2026-11-27" }, assessor.id, later);
    expect((await getHrwAssessment(db, id))!.history).toHaveLength(1);
  });

  it("each part keeps the accreditation it was recorded under: the audit row shows each, and none of them can be removed", async () => {
    const course = await licenceCourse("RB");
    const candidate = await readyCandidate([{ cls: "DG", expires_on: "2030-01-01" }]);
    const assessor = await makeUser(db, { role: "trainer" });
    const first = `VIC-A-${assessor.id.slice(0, 6)}`;
    const second = `VIC-B-${assessor.id.slice(0, 6)}`;
    const periods = [
      { number: first, starts_on: "2023-11-27", expires_on: "2026-11-26" },
      { number: second, starts_on: "2026-11-27", expires_on: "2029-11-26" },
    ];
    for (const p of periods) await addAccreditation(db, assessor.id, { regulator: "VIC", classes: ["RB"], ...p }, admin.id, at("2026-10-01"));
    const { id } = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-11-26", state: "VIC" }),
      admin.id,
      at("2026-11-20"),
    );
    await recordPartResult(db, id, { part: "knowledge", result: "satisfactory", assessed_on: "2026-11-26" }, assessor.id, at("2026-11-26"));
    for (const [i, part] of (["calculations", "practical"] as const).entries())
      await recordPartResult(
        db,
        id,
        { part, result: "satisfactory", assessed_on: "2026-11-27" },
        assessor.id,
        new Date(at("2026-11-27").getTime() + i * 60_000),
      );
    const view = (await getHrwAssessment(db, id))!;
    expect(view.history.map((p) => [p.part, p.accreditation_number])).toEqual([
      ["knowledge", first],
      ["calculations", second],
      ["practical", second],
    ]);
    expect(hrwReportRow(view)).toMatchObject({
      accreditation_number: second,
      part_accreditations: `Knowledge: ${first}; Calculations: ${second}; Practical: ${second}`,
    });
    // the first period is no assessment's latest, yet a part was recorded under it
    const firstId = (await db.selectFrom("hrw_accreditations").select("id").where("number", "=", first).executeTakeFirstOrThrow()).id;
    await expect(removeAccreditation(db, assessor.id, firstId, admin.id, at("2026-11-28"))).rejects.toMatchObject({ status: 409 });
    expect(await db.selectFrom("hrw_accreditations").select("id").where("id", "=", firstId).execute()).toHaveLength(1);
  });

  it("a result on a day inside a period recorded before the result counts; a period recorded after it never made it count", async () => {
    const course = await licenceCourse("RB");
    const candidate = await readyCandidate([{ cls: "DG", expires_on: "2030-01-01" }]);
    const assessor = await makeUser(db, { role: "trainer" });
    const { id } = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-11-26", state: "VIC" }),
      admin.id,
      at("2026-11-20"),
    );
    const part = { part: "knowledge" as const, result: "satisfactory" as const, assessed_on: "2026-11-26" };
    // a period covering 26 Nov, but recorded only on 28 Nov: a result recorded on 27 Nov is not under it
    await addAccreditation(
      db,
      assessor.id,
      { regulator: "VIC", number: `VIC-LATE-${assessor.id.slice(0, 6)}`, classes: ["RB"], starts_on: "2026-01-01", expires_on: "2027-12-31" },
      admin.id,
      at("2026-11-28"),
    );
    await expect(recordPartResult(db, id, part, assessor.id, at("2026-11-27"))).rejects.toMatchObject(refusedOn("26 Nov 2026"));
    expect(
      await coveringAccreditation(db, {
        trainerId: assessor.id,
        state: "VIC",
        licenceClass: "RB",
        date: "2026-11-26",
        recordedBy: at("2026-11-27").toISOString(),
      }),
    ).toBeNull();

    const number = `VIC-EARLY-${assessor.id.slice(0, 6)}`;
    await addAccreditation(
      db,
      assessor.id,
      { regulator: "VIC", number, classes: ["RB"], starts_on: "2026-11-01", expires_on: "2029-10-31" },
      admin.id,
      at("2026-11-02"),
    );
    await recordPartResult(db, id, part, assessor.id, at("2026-11-27"));
    expect((await getHrwAssessment(db, id))!.accreditation_number).toBe(number);
    // the first day of a period is covered, the day before it is not
    const recordedBy = at("2026-11-27").toISOString();
    expect(await coveringAccreditation(db, { trainerId: assessor.id, state: "VIC", licenceClass: "RB", date: "2026-11-01", recordedBy })).not.toBeNull();
    expect(await coveringAccreditation(db, { trainerId: assessor.id, state: "VIC", licenceClass: "RB", date: "2026-10-31", recordedBy })).toBeNull();
  });
});

describe("assessor register", () => {
  it("warns 60 days before an accreditation or the assessor's licence expires, and shows lapsed ones", async () => {
    const trainer = await assessorWith([
      { regulator: "QLD", classes: ["CN"], expires_on: "2027-01-29" },
      { regulator: "NSW", classes: ["CN"], expires_on: "2027-01-31" },
    ]);
    // 2027-01-31 is 62 days after 30 Nov and 61 after 1 Dec: not yet warned about
    await setAssessorLicence(db, trainer.id, { licence_number: "HRW999", licence_expires_on: "2026-11-30" }, admin.id);
    const warnings = await expiryWarnings(db, "2026-11-30", trainer.id);
    expect(warnings.map((w) => [w.what, w.expires_on, w.expired])).toEqual([
      ["licence", "2026-11-30", false],
      ["accreditation", "2027-01-29", false],
    ]);
    expect((await expiryWarnings(db, "2026-12-01", trainer.id)).map((w) => [w.expires_on, w.expired])).toEqual([
      ["2026-11-30", true],
      ["2027-01-29", false],
    ]);
    expect((await expiryWarnings(db, "2026-12-02", trainer.id)).map((w) => w.expires_on)).toEqual(["2026-11-30", "2027-01-29", "2027-01-31"]);
    expect((await expiryWarnings(db, "2026-12-01")).some((w) => w.trainer_id === trainer.id)).toBe(true);
    // a number is one assessor's; the same period twice is refused
    const number = (
      await db.selectFrom("hrw_accreditations").select("number").where("trainer_id", "=", trainer.id).where("regulator", "=", "QLD").executeTakeFirstOrThrow()
    ).number;
    await expect(
      addAccreditation(db, trainer.id, { regulator: "QLD", classes: ["CN"], starts_on: "2024-01-01", expires_on: "2027-01-01", number }, admin.id),
    ).rejects.toMatchObject({ status: 409, message: "This accreditation already has a period starting on 1 Jan 2024" });
    const other = await makeUser(db, { role: "trainer" });
    await expect(
      addAccreditation(db, other.id, { regulator: "QLD", classes: ["CN"], starts_on: "2027-01-30", expires_on: "2030-01-29", number }, admin.id),
    ).rejects.toMatchObject({ status: 409, message: HRW_MESSAGES.accreditationTaken });
    // renewed: the lapsed period no longer warns, the new one is far off
    await addAccreditation(db, trainer.id, { regulator: "QLD", classes: ["CN"], starts_on: "2027-01-30", expires_on: "2030-01-29", number }, admin.id);
    expect((await expiryWarnings(db, "2026-12-02", trainer.id)).map((w) => w.expires_on)).toEqual(["2026-11-30", "2027-01-31"]);
  });
});

describe("licence-application reminders", () => {
  const rto = { origin: "http://localhost:3000", rto: { name: "Summit", code: "90001" } };
  /** One pass of the job as the runner makes it on `date`: queue what is due, deliver the outbox. */
  async function pass(on: DB, mailer: Mailer, date: Date): Promise<number> {
    const queued = await queueDueReminders(on, date.toISOString().slice(0, 10), date);
    await deliverDueMail(on, { mailer, worker: `test-${Math.random()}`, now: () => date, ctx: rto });
    return queued;
  }

  it("each reminder is queued and mailed once, however many workers and servers run the job at once", async () => {
    const course = await licenceCourse("CN");
    const candidate = await readyCandidate();
    const assessor = await assessorWith([{ regulator: "QLD", classes: ["CN"], expires_on: "2028-01-01" }]);
    const { id } = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-12-07", state: "VIC" }),
      admin.id,
      at("2026-11-20"),
    );
    await db
      .insertInto("hrw_assessments")
      .values({
        ...(await db.selectFrom("hrw_assessments").selectAll().where("id", "=", id).executeTakeFirstOrThrow()),
        id: crypto.randomUUID(),
        candidate_id: (await makeUser(db, { role: "student" })).id,
        nsa_number: null,
      })
      .execute();
    // an NSA dated 1 Dec 2026: apply by 30 Jan 2027; reminders on 16 Jan and 27 Jan
    await db
      .updateTable("hrw_assessments")
      .set({ nsa_number: `NSA-R-${id.slice(0, 6)}`, nsa_date: "2026-12-01" })
      .where("id", "=", id)
      .execute();
    expect(addDays("2026-12-01", 60)).toBe("2027-01-30");
    expect(await queueDueReminders(db, "2027-01-15")).toBe(0);

    const email = (await db.selectFrom("users").select("email").where("id", "=", candidate.id).executeTakeFirstOrThrow()).email;
    const sent: MailMessage[] = [];
    const mailer: Mailer = { kind: "outbox", send: async (m) => (sent.push(m), { messageId: String(sent.length) }) };
    const mine = () => sent.filter((m) => m.to === email);
    // PostgreSQL: three connection pools, as three servers would have. SQLite: one process
    // holds one connection (better-sqlite3 blocks the thread while it waits for the write
    // lock), so the runs interleave on it as a process's requests do.
    const servers = TEST_DIALECT === "postgres" ? [db, openDatabase(url), openDatabase(url)] : [db];
    try {
      const now = at("2027-01-16");
      const runs = await Promise.all(servers.flatMap((s) => [pass(s, mailer, now), pass(s, mailer, now)]));
      expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
      expect(mine().map((m) => m.subject)).toEqual(["Apply for your CN licence by 30 Jan 2027"]);
      expect(mine()[0]!.text).toContain("14 days are left");
      expect(await pass(db, mailer, at("2027-01-20"))).toBe(0);
      const late = at("2027-01-27");
      const lateRuns = await Promise.all(servers.map((s) => pass(s, mailer, late)));
      expect(lateRuns.reduce((a, b) => a + b, 0)).toBe(1);
      expect(mine()).toHaveLength(2);
      expect(mine()[1]!.text).toContain("3 days are left");
      expect(await remindersSent(db, id)).toBe(2);
    } finally {
      await Promise.all(servers.slice(1).map((s) => s.destroy()));
    }
  });

  it("a reminder claimed before the outbox and never marked sent is queued once; a repeated pass queues nothing", async () => {
    const course = await licenceCourse("CN");
    const candidate = await readyCandidate();
    const assessor = await assessorWith([{ regulator: "QLD", classes: ["CN"], expires_on: "2028-01-01" }]);
    const { id } = await bookAssessment(
      db,
      booking({ candidate: candidate.id, course: course.id, assessor: assessor.id, date: "2026-12-07", state: "VIC" }),
      admin.id,
      at("2026-11-20"),
    );
    await db
      .updateTable("hrw_assessments")
      .set({ nsa_number: `NSA-S-${id.slice(0, 6)}`, nsa_date: "2026-11-01" })
      .where("id", "=", id)
      .execute();
    // the claim an older version left when its process died between claim and send
    await db.insertInto("hrw_reminders").values({ assessment_id: id, days_before: 14, claimed_at: "2026-12-17T00:00:00.000Z", sent_at: null }).execute();
    const keys = () => db.selectFrom("outbox_messages").select("key").where("key", "like", `hrw-reminder:${id}:%`).execute();
    expect(await queueDueReminders(db, "2026-12-17", new Date("2026-12-17T01:00:00Z"))).toBeGreaterThanOrEqual(1);
    expect((await keys()).map((k) => k.key)).toEqual([`hrw-reminder:${id}:14`]);
    await queueDueReminders(db, "2026-12-17", new Date("2026-12-17T01:10:00Z"));
    // the row forgotten again (a restore, a second cause): the key still holds it to one message
    await db.updateTable("hrw_reminders").set({ sent_at: null }).where("assessment_id", "=", id).execute();
    await queueDueReminders(db, "2026-12-17", new Date("2026-12-17T02:00:00Z"));
    expect(await keys()).toHaveLength(1);
    expect(await remindersSent(db, id)).toBe(1);
  });
});
