import crypto from "node:crypto";
import { noticeDueOn } from "~/models/hrw-assessment.server";
import { stateRulesOn } from "~/models/hrw-rules.server";
import { LICENCE_CLASSES, type HrwState } from "~/schemas/hrw-codes";
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

export async function seedHrwDemo(
  trx: DB,
  input: { now: Date; adminId: string; trainerId: string; passwordHash: string; locationId: string },
): Promise<void> {
  const today = organisationToday(input.now);
  const day = (offset: number) => addDays(today, offset);
  const at = (offset: number, minute = 0) => new Date(new Date(`${day(offset)}T00:00:00Z`).getTime() + (minute + 60) * 60_000).toISOString();
  const created = input.now.toISOString();

  const courses = await trx.selectFrom("courses").select(["id", "name"]).execute();
  const courseOf = new Map<string, string>();
  for (const c of courses) {
    const cls = /\(([A-Z0-9]{2})\)$/.exec(c.name)?.[1];
    if (cls && cls in LICENCE_CLASSES) {
      courseOf.set(cls, c.id);
      await trx.updateTable("courses").set({ licence_class: cls }).where("id", "=", c.id).execute();
    }
  }

  const priya = crypto.randomUUID();
  await trx
    .insertInto("users")
    .values({
      id: priya,
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
      created_at: at(-200),
      updated_at: at(-200),
      last_login: null,
    })
    .execute();

  // each a three-year period, recorded in the register long before any result recorded under it
  const accreditation = async (trainerId: string, number: string, classes: string[], expiresOn: string, regulator: HrwState = "NSW") => {
    const id = crypto.randomUUID();
    const recorded = at(-200);
    await trx
      .insertInto("hrw_accreditations")
      .values({ id, trainer_id: trainerId, regulator, number, classes: JSON.stringify(classes), starts_on: addDays(expiresOn, -3 * 365), expires_on: expiresOn, created_at: recorded, updated_at: recorded })
      .execute();
    return id;
  };
  const sam = await accreditation(input.trainerId, "NSW-HRWA-10452", ["DG", "RB", "RI", "CN", "C2"], day(45));
  await accreditation(priya, "NSW-HRWA-20981", ["CN", "C2", "CV"], day(700));
  await accreditation(priya, "NSW-HRWA-18840", ["DG", "RB"], day(-20));
  // Sam's QLD accreditation for CN, renewed last week: the earlier period covers the older results
  const samQldBefore = await accreditation(input.trainerId, "QLD-HRWA-30417", ["CN"], day(-6), "QLD");
  const samQld = await accreditation(input.trainerId, "QLD-HRWA-30417", ["CN"], day(3 * 365 - 5), "QLD");
  const brisbane = crypto.randomUUID();
  await trx
    .insertInto("delivery_locations")
    .values({ id: brisbane, identifier: "BNEYARD", name: "Summit Training Yard, Pinkenba", suburb: "Pinkenba", postcode: "4009", state: "03", country: "1101", created_at: at(-300), updated_at: at(-300) })
    .execute();
  for (const [trainerId, number, expires] of [[input.trainerId, "HRW-NSW-7741023", day(900)], [priya, "HRW-NSW-6620187", day(50)]] as const) {
    await trx.insertInto("hrw_assessors").values({ trainer_id: trainerId, licence_number: number, licence_expires_on: expires, updated_at: created, updated_by: input.adminId }).execute();
  }

  const students = new Map((await trx.selectFrom("users").select(["id", "email"]).where("role", "=", "student").execute()).map((u) => [u.email, u.id]));
  const check = async (email: string, kind: "age" | "identity" | "prerequisite" | "aen", detail: Record<string, unknown>, licenceClass: string | null = null) => {
    await trx
      .insertInto("hrw_candidate_checks")
      .values({ id: crypto.randomUUID(), candidate_id: students.get(email)!, kind, licence_class: licenceClass, detail: JSON.stringify(detail), checked_by: input.trainerId, checked_at: at(-40) })
      .execute();
  };
  const ready = async (email: string, dateOfBirth: string) => {
    await check(email, "age", { date_of_birth: dateOfBirth });
    await check(email, "identity", { documents: ["passport", "driver_licence"], points: 110 });
    // Service NSW's assessment enrolment number, which every NSW result needs
    await check(email, "aen", { state: "NSW", aen: `AEN${String(Math.abs([...email].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7))).padStart(8, "0").slice(0, 8)}` });
  };

  const book = async (b: {
    state?: HrwState;
    hours?: number;
    accreditation?: string;
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
    const id = crypto.randomUUID();
    const date = day(b.date);
    const state = b.state ?? "NSW";
    await trx
      .insertInto("hrw_assessments")
      .values({
        id,
        candidate_id: students.get(b.email)!,
        course_id: courseOf.get(b.cls)!,
        licence_class: b.cls,
        state,
        assessment_date: date,
        start_time: "07:30",
        location_id: state === "QLD" ? brisbane : input.locationId,
        hours: b.hours ?? null,
        assessor_id: b.assessor,
        plant_description: b.plant[0],
        plant_registration: b.plant[1],
        notice_due_on: noticeDueOn(await stateRulesOn(trx, state, date), date),
        accreditation_id: b.parts?.length ? (b.accreditation ?? sam) : null,
        nsa_number: b.nsa?.[0] ?? null,
        nsa_date: b.nsa ? day(b.nsa[1]) : null,
        nsa_recorded_by: b.nsa ? b.assessor : null,
        booked_by: input.trainerId,
        created_at: at(b.date - 14),
        updated_at: at(b.date - 14),
      })
      .execute();
    if (b.notice) await trx.insertInto("hrw_notices").values({ id: crypto.randomUUID(), assessment_id: id, held_on: date, reference: b.notice, sent_on: day(b.date - 10), recorded_at: at(b.date - 10), recorded_by: b.assessor }).execute();
    if (b.laterNotice) await trx.insertInto("hrw_notices").values({ id: crypto.randomUUID(), assessment_id: id, held_on: day(b.laterNotice[0]), reference: b.laterNotice[1], sent_on: day(b.laterNotice[0] - 7), recorded_at: at(b.laterNotice[0] - 7), recorded_by: b.assessor }).execute();
    for (const [i, [part, result, offset]] of (b.parts ?? []).entries()) {
      await trx.insertInto("hrw_assessment_parts").values({ id: crypto.randomUUID(), assessment_id: id, part, result, assessed_on: day(offset), recorded_by: b.assessor, recorded_at: at(offset, i) }).execute();
    }
  };

  const franna: [string, string] = ["Franna AT-20 pick-and-carry crane", "XN-42-AB"];
  const tadano: [string, string] = ["Tadano GR-160 slewing mobile crane", "SER 557129"];
  const rigging: [string, string] = ["Liebherr 81 K.1 tower crane with rigging gear", "TC-8811"];
  const all = (offset: number) => (["knowledge", "calculations", "practical"] as const).map((p) => [p, "satisfactory", offset] as [typeof p, "satisfactory", number]);

  await ready("student@example.com", "1996-04-18");
  await book({ email: "student@example.com", cls: "CN", assessor: input.trainerId, date: -30, plant: franna, notice: "SWN-HRW-88213", parts: [["knowledge", "satisfactory", -30], ["calculations", "satisfactory", -30], ["practical", "not_yet_satisfactory", -30], ["practical", "satisfactory", -28]], nsa: ["NSA-NSW-2026-0417", -27] });
  await ready("liam.oconnor@example.com", "1994-03-12");
  await book({ email: "liam.oconnor@example.com", cls: "DG", assessor: input.trainerId, date: -5, plant: rigging, notice: "SWN-HRW-88502", parts: all(-5) });
  await ready("mia.nguyen@example.com", "1998-07-25");
  await check("mia.nguyen@example.com", "prerequisite", { licence_number: "DG-NSW-5521903", expires_on: day(1200) }, "DG");
  await book({ email: "mia.nguyen@example.com", cls: "RB", assessor: input.trainerId, date: -3, plant: rigging, notice: "SWN-HRW-88577", parts: [["knowledge", "satisfactory", -3], ["calculations", "satisfactory", -3], ["practical", "not_yet_satisfactory", -3]] });
  await ready("jack.williams@example.com", "1990-11-02");
  await book({ email: "jack.williams@example.com", cls: "C2", assessor: input.trainerId, date: -1, plant: tadano, notice: "SWN-HRW-88610", parts: [["knowledge", "satisfactory", -1]] });
  await ready("noah.singh@example.com", "2001-01-19");
  await book({ email: "noah.singh@example.com", cls: "CN", assessor: input.trainerId, date: 10, plant: franna, notice: "SWN-HRW-88702" });
  await ready("ava.kowalski@example.com", "1996-05-30");
  await book({ email: "ava.kowalski@example.com", cls: "DG", assessor: input.trainerId, date: 12, plant: rigging });
  // Priya's rigging accreditation lapsed before this date: recording a result is refused
  await ready("ethan.papadopoulos@example.com", "1988-09-14");
  await check("ethan.papadopoulos@example.com", "prerequisite", { licence_number: "DG-NSW-4410762", expires_on: day(900) }, "DG");
  await book({ email: "ethan.papadopoulos@example.com", cls: "RB", assessor: priya, date: -2, plant: rigging, notice: "SWN-HRW-88655" });
  // QLD at the Brisbane yard. Sam's CN currency: 8 hours at each of the five assessments with
  // results reach 35 hours only with the oldest, so it lapses when that one leaves the 3-year window
  for (const [email, dob, offset, nsa] of [
    ["zoe.robinson@example.com", "1997-10-26", -1045, "NSA-QLD-2023-1182"],
    ["lucas.martin@example.com", "1992-04-21", -900, "NSA-QLD-2024-0231"],
    ["isla.fraser@example.com", "2000-08-17", -700, "NSA-QLD-2024-0977"],
    ["mason.ali@example.com", "1995-02-03", -400, "NSA-QLD-2025-1406"],
  ] as const) {
    await ready(email, dob);
    await book({ state: "QLD", hours: 8, accreditation: samQldBefore, email, cls: "CN", assessor: input.trainerId, date: offset, plant: franna, notice: `QLD-NOT-${-offset}`, parts: all(offset), nsa: [nsa, offset + 2] });
  }
  // two days, not consecutive: a notice for each
  await ready("chloe.tanaka@example.com", "1999-12-08");
  await book({ state: "QLD", hours: 8, accreditation: samQld, email: "chloe.tanaka@example.com", cls: "CN", assessor: input.trainerId, date: -6, plant: franna, notice: "QLD-NOT-20611", laterNotice: [-4, "QLD-NOT-20648"], parts: [["knowledge", "satisfactory", -6], ["calculations", "satisfactory", -6], ["practical", "satisfactory", -4]] });
  await book({ state: "QLD", email: "isla.fraser@example.com", cls: "CN", assessor: input.trainerId, date: 9, plant: franna, notice: "QLD-NOT-20702" });
  await book({ state: "QLD", email: "mason.ali@example.com", cls: "CN", assessor: input.trainerId, date: 15, plant: franna });
  // identity never sighted: booking him is refused and the page says so
  await check("harry.campbell@example.com", "age", { date_of_birth: "2002-06-11" });
}
