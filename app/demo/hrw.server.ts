import { bookAssessment, recordNotice, recordNsa, recordPartResult } from "~/models/hrw/hrw-assessment.server";
import { recordCandidateCheck } from "~/models/hrw/hrw-candidate.server";
import { addAccreditation, setAssessorLicence } from "~/models/hrw/hrw-register.server";
import { createLocation } from "~/models/location.server";
import { insertUser } from "~/models/user.server";
import { accreditationSchema, assessorLicenceSchema } from "~/schemas/hrw";
import { LICENCE_CLASSES, type HrwState } from "~/schemas/hrw-codes";
import { locationSchema } from "~/schemas/location";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import type { DB } from "#db/connection";

/**
 * The demo of high-risk work licence assessments (docs/decisions/011): licence classes on the
 * catalogue (from the "(DG)" at the end of each course name), two accredited assessors (Sam
 * Whitfield's accreditation expires within 60 days; Priya Shah's rigging classes have lapsed),
 * a booking in every stage of the workflow, and Harry Campbell, whose evidence of identity was
 * never sighted, so he cannot be booked. Decision 025's state rules: the Brisbane yard is in QLD,
 * where Sam also holds an accreditation for CN whose currency (35 hours in 3 years) runs out within
 * the 90-day warning, with a QLD booking in each stage (a two-day assessment with a notice per day).
 */
export const HRW_DEMO_ASSESSOR = { email: "priya.shah@example.com", full_name: "Priya Shah" };

/** The class a demo course's name ends with, "(DG)", when it is a licence class: set as the course is added. */
export function demoLicenceClass(courseName: string): string | undefined {
  const cls = /\(([A-Z0-9]{2})\)$/.exec(courseName)?.[1];
  return cls && cls in LICENCE_CLASSES ? cls : undefined;
}

/** Priya Shah, the second assessor, added as an administrator adds staff (before the credentials the seed records for her). */
export async function seedHrwAssessor(trx: DB, input: { now: Date; passwordHash: string }): Promise<string> {
  const joined = new Date(input.now.getTime() - 200 * 864e5).toISOString();
  return insertUser(
    trx,
    {
      email: HRW_DEMO_ASSESSOR.email,
      full_name: HRW_DEMO_ASSESSOR.full_name,
      password_hash: input.passwordHash,
      role: "trainer",
      phone: "0400 555 666",
      address: null,
      date_of_birth: null,
      emergency_contact: null,
      license_number: null,
      is_active: 1,
      approval_status: "approved",
    },
    joined,
  );
}

/**
 * The register, the candidates' checks and the bookings, each made by the model function the
 * HRW pages call, at the time it was done (so each refusal those pages make applies: no booking
 * in the past or without its checks, no notice after its deadline, no result without its notice
 * or outside a covering accreditation recorded before it, no NSA before every part is
 * satisfactory).
 */
export async function seedHrwDemo(trx: DB, input: { now: Date; adminId: string; trainerId: string; priyaId: string; locationId: string }): Promise<void> {
  const today = organisationToday(input.now);
  const day = (offset: number) => addDays(today, offset);
  const at = (offset: number, minute = 0) => new Date(new Date(`${day(offset)}T00:00:00Z`).getTime() + (minute + 60) * 60_000);
  const admin = { id: input.adminId };
  const priya = input.priyaId;

  const courseOf = new Map<string, string>();
  for (const c of await trx.selectFrom("courses").select(["id", "licence_class"]).where("licence_class", "is not", null).execute())
    courseOf.set(c.licence_class!, c.id);

  // each a three-year period, recorded in the register 200 days ago, or when it began if that was earlier
  const accreditation = async (trainerId: string, number: string, classes: string[], expiresOn: string, regulator: HrwState = "NSW") => {
    const startsOn = addDays(expiresOn, -3 * 365);
    const recorded = startsOn < day(-200) ? new Date(`${startsOn}T01:00:00Z`) : at(-200);
    const added = await addAccreditation(
      trx,
      trainerId,
      accreditationSchema.parse({ regulator, number, classes, starts_on: startsOn, expires_on: expiresOn }),
      admin,
      recorded,
    );
    return added.id;
  };
  await accreditation(input.trainerId, "NSW-HRWA-10452", ["DG", "RB", "RI", "CN", "C2"], day(45));
  await accreditation(priya, "NSW-HRWA-20981", ["CN", "C2", "CV"], day(700));
  await accreditation(priya, "NSW-HRWA-18840", ["DG", "RB"], day(-20));
  // Sam's QLD accreditation for CN, renewed last week: the earlier period covers the older results
  await accreditation(input.trainerId, "QLD-HRWA-30417", ["CN"], day(-6), "QLD");
  await accreditation(input.trainerId, "QLD-HRWA-30417", ["CN"], day(3 * 365 - 5), "QLD");
  const brisbane = (
    await createLocation(
      trx,
      locationSchema.parse({
        identifier: "BNEYARD",
        name: "Summit Training Yard, Pinkenba",
        suburb: "Pinkenba",
        postcode: "4009",
        state: "03",
        country: "1101",
      }),
      input.adminId,
      at(-300),
    )
  ).id;
  for (const [trainerId, number, expires] of [
    [input.trainerId, "HRW-NSW-7741023", day(900)],
    [priya, "HRW-NSW-6620187", day(50)],
  ] as const) {
    await setAssessorLicence(trx, trainerId, assessorLicenceSchema.parse({ licence_number: number, licence_expires_on: expires }), admin, input.now);
  }

  const students = new Map((await trx.selectFrom("users").select(["id", "email"]).where("role", "=", "student").execute()).map((u) => [u.email, u.id]));
  const sam = { id: input.trainerId };
  // checks sighted 40 days ago, or a fortnight before the candidate's first booking if that was earlier
  const check = (email: string, input: Parameters<typeof recordCandidateCheck>[2], offset = -40) =>
    recordCandidateCheck(trx, students.get(email)!, input, sam, at(offset));
  const ready = async (email: string, dateOfBirth: string, offset = -40) => {
    await check(email, { kind: "age", date_of_birth: dateOfBirth }, offset);
    await check(email, { kind: "identity", documents: ["passport", "driver_licence"] }, offset);
    // Service NSW's assessment enrolment number, which every NSW result needs: recorded 40 days
    // ago, as NSW asked for none before its rule began
    await check(email, {
      kind: "aen",
      state: "NSW",
      aen: `AEN${String(Math.abs([...email].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7)))
        .padStart(8, "0")
        .slice(0, 8)}`,
    });
  };

  const book = async (b: {
    state?: HrwState;
    hours?: number;
    email: string;
    cls: string;
    assessor: string;
    date: number;
    plant: [string, string];
    notice?: string;
    /** a further notice for a later day of the same assessment: [day offset, reference] */
    laterNotice?: [number, string];
    parts?: Array<[part: "knowledge" | "calculations" | "practical", result: "satisfactory" | "not_yet_satisfactory", offset: number]>;
    nsa?: [string, number];
  }) => {
    const date = day(b.date);
    const state = b.state ?? "NSW";
    const assessor = { id: b.assessor };
    // booked by the trainer a fortnight ahead; the state comes from the yard (Brisbane's is QLD)
    const { id } = await bookAssessment(
      trx,
      {
        candidate_id: students.get(b.email)!,
        course_id: courseOf.get(b.cls)!,
        assessment_date: date,
        start_time: "07:30",
        location_id: state === "QLD" ? brisbane : input.locationId,
        hours: b.hours ?? null,
        assessor_id: b.assessor,
        plant_description: b.plant[0],
        plant_registration: b.plant[1],
      },
      sam,
      at(b.date - 14),
    );
    if (b.notice) await recordNotice(trx, id, { notice_reference: b.notice, sent_on: day(b.date - 10) }, assessor, at(b.date - 10));
    if (b.laterNotice) {
      const [offset, reference] = b.laterNotice;
      await recordNotice(trx, id, { notice_reference: reference, held_on: day(offset), sent_on: day(offset - 7) }, assessor, at(offset - 7));
    }
    for (const [i, [part, result, offset]] of (b.parts ?? []).entries()) {
      await recordPartResult(trx, id, { part, result, assessed_on: day(offset) }, assessor, at(offset, i));
    }
    if (b.nsa) await recordNsa(trx, id, { nsa_number: b.nsa[0], nsa_date: day(b.nsa[1]) }, assessor, at(b.nsa[1]));
  };

  const franna: [string, string] = ["Franna AT-20 pick-and-carry crane", "XN-42-AB"];
  const tadano: [string, string] = ["Tadano GR-160 slewing mobile crane", "SER 557129"];
  const rigging: [string, string] = ["Liebherr 81 K.1 tower crane with rigging gear", "TC-8811"];
  const all = (offset: number) =>
    (["knowledge", "calculations", "practical"] as const).map((p) => [p, "satisfactory", offset] as [typeof p, "satisfactory", number]);

  await ready("student@example.com", "1996-04-18");
  await book({
    email: "student@example.com",
    cls: "CN",
    assessor: input.trainerId,
    date: -30,
    plant: franna,
    notice: "SWN-HRW-88213",
    // NSW schedules each assessment day: the practical's reassessment two days later was scheduled too
    laterNotice: [-28, "SWN-HRW-88240"],
    parts: [
      ["knowledge", "satisfactory", -30],
      ["calculations", "satisfactory", -30],
      ["practical", "not_yet_satisfactory", -30],
      ["practical", "satisfactory", -28],
    ],
    nsa: ["NSA-NSW-2026-0417", -27],
  });
  await ready("liam.oconnor@example.com", "1994-03-12");
  await book({ email: "liam.oconnor@example.com", cls: "DG", assessor: input.trainerId, date: -5, plant: rigging, notice: "SWN-HRW-88502", parts: all(-5) });
  await ready("mia.nguyen@example.com", "1998-07-25");
  await check("mia.nguyen@example.com", { kind: "prerequisite", licence_class: "DG", licence_number: "DG-NSW-5521903", expires_on: day(1200) });
  await book({
    email: "mia.nguyen@example.com",
    cls: "RB",
    assessor: input.trainerId,
    date: -3,
    plant: rigging,
    notice: "SWN-HRW-88577",
    parts: [
      ["knowledge", "satisfactory", -3],
      ["calculations", "satisfactory", -3],
      ["practical", "not_yet_satisfactory", -3],
    ],
  });
  await ready("jack.williams@example.com", "1990-11-02");
  await book({
    email: "jack.williams@example.com",
    cls: "C2",
    assessor: input.trainerId,
    date: -1,
    plant: tadano,
    notice: "SWN-HRW-88610",
    parts: [["knowledge", "satisfactory", -1]],
  });
  await ready("noah.singh@example.com", "2001-01-19");
  await book({ email: "noah.singh@example.com", cls: "CN", assessor: input.trainerId, date: 10, plant: franna, notice: "SWN-HRW-88702" });
  await ready("ava.kowalski@example.com", "1996-05-30");
  await book({ email: "ava.kowalski@example.com", cls: "DG", assessor: input.trainerId, date: 12, plant: rigging });
  // Priya's rigging accreditation lapsed before this date: recording a result is refused
  await ready("ethan.papadopoulos@example.com", "1988-09-14");
  await check("ethan.papadopoulos@example.com", { kind: "prerequisite", licence_class: "DG", licence_number: "DG-NSW-4410762", expires_on: day(900) });
  await book({ email: "ethan.papadopoulos@example.com", cls: "RB", assessor: priya, date: -2, plant: rigging, notice: "SWN-HRW-88655" });
  // QLD at the Brisbane yard. Sam's CN currency: 8 hours at each of the five assessments with
  // results reach 35 hours only with the oldest, so it lapses when that one leaves the 3-year window
  for (const [email, dob, offset, nsa] of [
    ["zoe.robinson@example.com", "1997-10-26", -1045, "NSA-QLD-2023-1182"],
    ["lucas.martin@example.com", "1992-04-21", -900, "NSA-QLD-2024-0231"],
    ["isla.fraser@example.com", "2000-08-17", -700, "NSA-QLD-2024-0977"],
    ["mason.ali@example.com", "1995-02-03", -400, "NSA-QLD-2025-1406"],
  ] as const) {
    await ready(email, dob, Math.min(-40, offset - 15));
    await book({
      state: "QLD",
      hours: 8,
      email,
      cls: "CN",
      assessor: input.trainerId,
      date: offset,
      plant: franna,
      notice: `QLD-NOT-${-offset}`,
      parts: all(offset),
      nsa: [nsa, offset + 2],
    });
  }
  // two days, not consecutive: a notice for each
  await ready("chloe.tanaka@example.com", "1999-12-08");
  await book({
    state: "QLD",
    hours: 8,
    email: "chloe.tanaka@example.com",
    cls: "CN",
    assessor: input.trainerId,
    date: -6,
    plant: franna,
    notice: "QLD-NOT-20611",
    laterNotice: [-4, "QLD-NOT-20648"],
    parts: [
      ["knowledge", "satisfactory", -6],
      ["calculations", "satisfactory", -6],
      ["practical", "satisfactory", -4],
    ],
  });
  await book({ state: "QLD", email: "isla.fraser@example.com", cls: "CN", assessor: input.trainerId, date: 9, plant: franna, notice: "QLD-NOT-20702" });
  await book({ state: "QLD", email: "mason.ali@example.com", cls: "CN", assessor: input.trainerId, date: 15, plant: franna });
  // identity never sighted: booking him is refused and the page says so
  await check("harry.campbell@example.com", { kind: "age", date_of_birth: "2002-06-11" });
}
