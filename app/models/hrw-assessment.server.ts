import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import type { BookingInput, NsaInput, PartResultInput } from "~/schemas/hrw";
import {
  HRW_MESSAGES,
  HRW_STAGES,
  partsText,
  NAI_PART_CODES,
  NSA_APPLICATION_DAYS,
  type HrwStage,
  prerequisitesOf,
  type HrwState,
  type NaiPart,
  type NaiResult,
} from "~/schemas/hrw-codes";
import { organisationToday } from "~/utils/organisation-calendar";
import { conflict, DomainError, invalid, notFound } from "~/utils/errors";
import { addDays } from "~/utils/organisation-calendar";
import { businessDaysBefore } from "./hrw-calendar.server";
import { missingChecks } from "./hrw-candidate.server";
import { coveringAccreditation, noticeDaysFor } from "./hrw-register.server";
import { recordAudit, signedInActor, type SignedInActorRef } from "./audit.server";

/**
 * High-risk work licence assessments: the booking, the regulator's notice, the NAI part
 * results (every one kept, the latest per part counts), the NSA, and the views the assessor,
 * the candidate and the regulator's audit read.
 */

/** The last day the candidate may lodge the NSA with the regulator. */
export const applicationDeadline = (nsaDate: string) => addDays(nsaDate, NSA_APPLICATION_DAYS);

export interface PartResult {
  part: NaiPart;
  result: NaiResult;
  assessed_on: string;
  recorded_at: string;
}

export interface HrwAssessment {
  id: string;
  candidate: { id: string; full_name: string };
  course: { id: string; name: string; unit_code: string };
  licence_class: string;
  state: HrwState;
  assessment_date: string;
  start_time: string;
  location: { id: string; name: string; identifier: string };
  assessor: { id: string; full_name: string };
  accreditation_number: string | null;
  plant_description: string;
  plant_registration: string;
  notice_due_on: string | null;
  notice_reference: string | null;
  nsa_number: string | null;
  nsa_date: string | null;
  /** the latest result of each part */
  parts: Partial<Record<NaiPart, PartResult>>;
  /** every result, oldest first (reassessments included) */
  history: PartResult[];
  stage: HrwStage;
  application_deadline: string | null;
}

export function stageOf(a: Pick<HrwAssessment, "notice_due_on" | "notice_reference" | "nsa_number" | "parts">): HrwStage {
  if (a.nsa_number) return "nsa_issued";
  const latest = NAI_PART_CODES.map((p) => a.parts[p]?.result);
  if (latest.every((r) => r === "satisfactory")) return "satisfactory";
  if (latest.some((r) => r === "not_yet_satisfactory")) return "not_yet_satisfactory";
  if (latest.some(Boolean)) return "in_progress";
  if (a.notice_due_on && !a.notice_reference) return "notice_due";
  return "booked";
}

export interface HrwFilter {
  from?: string | null;
  to?: string | null;
  assessorId?: string;
  candidateId?: string;
  id?: string;
  limit?: number;
}

/** The audit report's ceiling: a period that holds more is narrowed, and the page says so. */
export const HRW_REPORT_LIMIT = 2000;

export async function listHrwAssessments(db: DB, filter: HrwFilter = {}): Promise<HrwAssessment[]> {
  let query = db
    .selectFrom("hrw_assessments as a")
    .innerJoin("users as c", "c.id", "a.candidate_id")
    .innerJoin("users as t", "t.id", "a.assessor_id")
    .innerJoin("courses as co", "co.id", "a.course_id")
    .innerJoin("delivery_locations as l", "l.id", "a.location_id")
    .leftJoin("hrw_accreditations as acc", "acc.id", "a.accreditation_id")
    .select([
      "a.id",
      "a.candidate_id",
      "c.full_name as candidate_name",
      "a.course_id",
      "co.name as course_name",
      "co.unit_code",
      "a.licence_class",
      "a.state",
      "a.assessment_date",
      "a.start_time",
      "a.location_id",
      "l.name as location_name",
      "l.identifier as location_identifier",
      "a.assessor_id",
      "t.full_name as assessor_name",
      "acc.number as accreditation_number",
      "a.plant_description",
      "a.plant_registration",
      "a.notice_due_on",
      "a.notice_reference",
      "a.nsa_number",
      "a.nsa_date",
    ]);
  if (filter.from) query = query.where("a.assessment_date", ">=", filter.from);
  if (filter.to) query = query.where("a.assessment_date", "<=", filter.to);
  if (filter.assessorId) query = query.where("a.assessor_id", "=", filter.assessorId);
  if (filter.candidateId) query = query.where("a.candidate_id", "=", filter.candidateId);
  if (filter.id) query = query.where("a.id", "=", filter.id);
  const rows = await query.orderBy("a.assessment_date").orderBy("a.start_time").orderBy("a.id").limit(filter.limit ?? HRW_REPORT_LIMIT).execute();
  if (rows.length === 0) return [];
  const parts = await db
    .selectFrom("hrw_assessment_parts")
    .select(["assessment_id", "part", "result", "assessed_on", "recorded_at"])
    .where("assessment_id", "in", rows.map((r) => r.id))
    .orderBy("assessed_on")
    .orderBy("recorded_at")
    .orderBy("id")
    .execute();
  const history = new Map<string, PartResult[]>();
  for (const p of parts) history.set(p.assessment_id, [...(history.get(p.assessment_id) ?? []), { part: p.part, result: p.result, assessed_on: p.assessed_on, recorded_at: p.recorded_at }]);
  return rows.map((r) => {
    const all = history.get(r.id) ?? [];
    const latest: Partial<Record<NaiPart, PartResult>> = {};
    for (const p of all) latest[p.part] = p;
    const view = {
      id: r.id,
      candidate: { id: r.candidate_id, full_name: r.candidate_name },
      course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code },
      licence_class: r.licence_class,
      state: r.state as HrwState,
      assessment_date: r.assessment_date,
      start_time: r.start_time,
      location: { id: r.location_id, name: r.location_name, identifier: r.location_identifier },
      assessor: { id: r.assessor_id, full_name: r.assessor_name },
      accreditation_number: r.accreditation_number,
      plant_description: r.plant_description,
      plant_registration: r.plant_registration,
      notice_due_on: r.notice_due_on,
      notice_reference: r.notice_reference,
      nsa_number: r.nsa_number,
      nsa_date: r.nsa_date,
      parts: latest,
      history: all,
      application_deadline: r.nsa_date ? applicationDeadline(r.nsa_date) : null,
    };
    return { ...view, stage: stageOf(view) };
  });
}

export async function getHrwAssessment(db: DB, id: string, scope: { candidateId?: string } = {}): Promise<HrwAssessment | null> {
  return (await listHrwAssessments(db, { id, candidateId: scope.candidateId, limit: 1 }))[0] ?? null;
}

/**
 * Books an assessment. Refused (409, naming what is missing) while the candidate's checks are
 * incomplete for the course's class on that date; the regulator's notice deadline comes from
 * the state's lead time in business days.
 */
export async function bookAssessment(db: DB, input: BookingInput, actorRef: SignedInActorRef, now = new Date()): Promise<{ id: string }> {
  const actor = signedInActor(actorRef);
  const actorId = actor.id;
  if (input.assessment_date < organisationToday(now)) throw invalid("The assessment date cannot be in the past", { assessment_date: "The assessment date cannot be in the past" });
  const at = now.toISOString();
  const id = crypto.randomUUID();
  return writeTransaction(db, async (trx) => {
    const course = await trx.selectFrom("courses").select(["id", "licence_class", "licence_prerequisites"]).where("id", "=", input.course_id).executeTakeFirst();
    if (!course) throw new DomainError(404, "Course not found", {}, "course_id");
    if (!course.licence_class) throw new DomainError(409, HRW_MESSAGES.noLicenceClass, {}, "course_id");
    const assessor = await trx.selectFrom("users").select("id").where("id", "=", input.assessor_id).where("role", "=", "trainer").where("is_active", "=", 1).executeTakeFirst();
    if (!assessor) throw new DomainError(409, HRW_MESSAGES.notATrainer, {}, "assessor_id");
    const location = await trx.selectFrom("delivery_locations").select("id").where("id", "=", input.location_id).executeTakeFirst();
    if (!location) throw new DomainError(404, "Location not found", {}, "location_id");
    const candidate = await trx.selectFrom("users").select("id").where("id", "=", input.candidate_id).where("role", "=", "student").where("is_active", "=", 1).executeTakeFirst();
    if (!candidate) throw new DomainError(409, HRW_MESSAGES.notAStudent, {}, "candidate_id");
    const missing = await missingChecks(trx, input.candidate_id, { date: input.assessment_date, prerequisites: prerequisitesOf(course) });
    if (missing.length) throw new DomainError(409, HRW_MESSAGES.checksMissing(missing), {}, "candidate_id");
    const noticeDays = await noticeDaysFor(trx, input.state);
    await trx
      .insertInto("hrw_assessments")
      .values({
        id,
        ...input,
        licence_class: course.licence_class,
        notice_due_on: noticeDays === null ? null : businessDaysBefore(input.assessment_date, noticeDays, input.state),
        booked_by: actorId,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await recordAudit(trx, { action: "hrw.assessment_booked", actor, subject: { type: "hrw_assessment", id, userId: input.candidate_id }, detail: `${course.licence_class} in ${input.state} on ${input.assessment_date}`, now: at });
    return { id };
  });
}

async function assessmentForAssessor(trx: DB, id: string, actorId: string) {
  const row = await trx
    .selectFrom("hrw_assessments")
    .select(["id", "assessor_id", "candidate_id", "state", "licence_class", "assessment_date", "notice_due_on", "notice_reference", "nsa_number"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound("Assessment");
  // trainers record only as themselves: the booked assessor, nobody on their behalf
  if (row.assessor_id !== actorId) throw new DomainError(403, HRW_MESSAGES.notYourAssessment);
  return row;
}

export async function recordNotice(db: DB, id: string, reference: string, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  const actorId = actor.id;
  await writeTransaction(db, async (trx) => {
    const row = await assessmentForAssessor(trx, id, actorId);
    const at = now.toISOString();
    await trx.updateTable("hrw_assessments").set({ notice_reference: reference, notice_recorded_at: at, notice_recorded_by: actorId, updated_at: at }).where("id", "=", id).execute();
    await recordAudit(trx, { action: "hrw.notice_recorded", actor, subject: { type: "hrw_assessment", id, userId: row.candidate_id }, detail: reference, now: at });
  });
}

/**
 * Records one NAI part's result as the booked assessor. Refused while a required regulator
 * notice is missing, after the NSA, and (409) when no accreditation period of the assessor,
 * recorded before now, covers the class in the booking's state on the day the part was assessed.
 */
export async function recordPartResult(db: DB, id: string, input: PartResultInput, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  const actorId = actor.id;
  await writeTransaction(db, async (trx) => {
    const row = await assessmentForAssessor(trx, id, actorId);
    if (row.nsa_number) throw conflict(HRW_MESSAGES.nsaAlready);
    if (row.notice_due_on && !row.notice_reference) throw conflict(HRW_MESSAGES.noticeMissing(row.notice_due_on));
    if (input.assessed_on < row.assessment_date) throw invalid(HRW_MESSAGES.resultBeforeDate, { assessed_on: HRW_MESSAGES.resultBeforeDate });
    if (input.assessed_on > organisationToday(now)) throw invalid("The date assessed cannot be in the future", { assessed_on: "The date assessed cannot be in the future" });
    const at = now.toISOString();
    const accreditation = await coveringAccreditation(trx, { trainerId: actorId, state: row.state as HrwState, licenceClass: row.licence_class, date: input.assessed_on, recordedBy: at });
    if (!accreditation) throw conflict(HRW_MESSAGES.notCovered(row.licence_class, input.assessed_on));
    await trx
      .insertInto("hrw_assessment_parts")
      .values({ id: crypto.randomUUID(), assessment_id: id, part: input.part, result: input.result, assessed_on: input.assessed_on, recorded_by: actorId, recorded_at: at })
      .execute();
    await trx.updateTable("hrw_assessments").set({ accreditation_id: accreditation.id, updated_at: at }).where("id", "=", id).execute();
    await recordAudit(trx, {
      action: "hrw.result_recorded",
      actor,
      subject: { type: "hrw_assessment", id, userId: row.candidate_id },
      detail: `${input.part}: ${input.result} on ${input.assessed_on} under accreditation ${accreditation.number}`,
      now: at,
    });
  });
}

/** Records the NSA: only when all three parts' latest results are satisfactory; numbers are unique. */
export async function recordNsa(db: DB, id: string, input: NsaInput, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  const actorId = actor.id;
  await writeTransaction(db, async (trx) => {
    const row = await assessmentForAssessor(trx, id, actorId);
    if (row.nsa_number) throw conflict(HRW_MESSAGES.nsaAlready);
    const view = (await listHrwAssessments(trx, { id, limit: 1 }))[0]!;
    if (view.stage !== "satisfactory") throw conflict(HRW_MESSAGES.notAllSatisfactory);
    const lastPart = view.history.reduce((max, p) => (p.assessed_on > max ? p.assessed_on : max), row.assessment_date);
    if (input.nsa_date < lastPart) throw invalid("The NSA date cannot be before the last part was assessed", { nsa_date: "The NSA date cannot be before the last part was assessed" });
    if (input.nsa_date > organisationToday(now)) throw invalid("The NSA date cannot be in the future", { nsa_date: "The NSA date cannot be in the future" });
    const taken = await trx.selectFrom("hrw_assessments").select("id").where("nsa_number", "=", input.nsa_number).executeTakeFirst();
    if (taken) throw conflict(HRW_MESSAGES.nsaTaken, "nsa_number");
    await trx
      .updateTable("hrw_assessments")
      .set({ nsa_number: input.nsa_number, nsa_date: input.nsa_date, nsa_recorded_by: actorId, updated_at: now.toISOString() })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, { action: "hrw.nsa_recorded", actor, subject: { type: "hrw_assessment", id, userId: row.candidate_id }, detail: `${input.nsa_number} dated ${input.nsa_date}`, now });
  });
}

/** The assessor's "Notify the regulator by DATE" list: bookings whose notice is not recorded yet. */
export async function noticesDue(db: DB, assessorId: string): Promise<Array<{ id: string; candidate_name: string; licence_class: string; state: string; assessment_date: string; notice_due_on: string }>> {
  const rows = await db
    .selectFrom("hrw_assessments as a")
    .innerJoin("users as c", "c.id", "a.candidate_id")
    .select(["a.id", "c.full_name as candidate_name", "a.licence_class", "a.state", "a.assessment_date", "a.notice_due_on"])
    .where("a.assessor_id", "=", assessorId)
    .where("a.notice_due_on", "is not", null)
    .where("a.notice_reference", "is", null)
    .where("a.nsa_number", "is", null)
    .orderBy("a.notice_due_on")
    .orderBy("a.id")
    .limit(50)
    .execute();
  return rows.map((r) => ({ ...r, notice_due_on: r.notice_due_on! }));
}

/** The candidate's licence applications still open: "Apply for your CN licence by DATE". */
export async function licenceApplicationsDue(db: DB, candidateId: string, today: string): Promise<Array<{ id: string; licence_class: string; nsa_number: string; deadline: string }>> {
  const rows = await db
    .selectFrom("hrw_assessments")
    .select(["id", "licence_class", "nsa_number", "nsa_date"])
    .where("candidate_id", "=", candidateId)
    .where("nsa_date", ">=", addDays(today, -NSA_APPLICATION_DAYS))
    .orderBy("nsa_date")
    .execute();
  return rows.filter((r) => r.nsa_number && r.nsa_date).map((r) => ({ id: r.id, licence_class: r.licence_class, nsa_number: r.nsa_number!, deadline: applicationDeadline(r.nsa_date!) }));
}

/** What the booking form offers: licence courses, active trainers as assessors, delivery locations. */
export async function bookingOptions(db: DB) {
  const [courses, assessors, locations] = await Promise.all([
    db.selectFrom("courses").select(["id", "name", "unit_code", "licence_class"]).where("licence_class", "is not", null).where("is_active", "=", 1).orderBy("licence_class").orderBy("name").execute(),
    db.selectFrom("users").select(["id", "full_name"]).where("role", "=", "trainer").where("is_active", "=", 1).where("approval_status", "=", "approved").orderBy("full_name").limit(200).execute(),
    db.selectFrom("delivery_locations").select(["id", "name", "identifier"]).orderBy("created_at").orderBy("id").execute(),
  ]);
  return { courses: courses.map((c) => ({ ...c, licence_class: c.licence_class! })), assessors, locations };
}

/** The regulator's audit as CSV columns, one row per assessment. */
export const HRW_REPORT_COLUMNS = [
  "assessment_date",
  "start_time",
  "candidate",
  "licence_class",
  "unit_code",
  "state",
  "location",
  "plant",
  "plant_registration",
  "assessor",
  "accreditation_number",
  "notice_reference",
  "parts",
  "result",
  "nsa_number",
  "nsa_date",
] as const;

export function hrwReportRow(a: HrwAssessment): Record<(typeof HRW_REPORT_COLUMNS)[number], string> {
  return {
    assessment_date: a.assessment_date,
    start_time: a.start_time,
    candidate: a.candidate.full_name,
    licence_class: a.licence_class,
    unit_code: a.course.unit_code,
    state: a.state,
    location: `${a.location.name} (${a.location.identifier})`,
    plant: a.plant_description,
    plant_registration: a.plant_registration,
    assessor: a.assessor.full_name,
    accreditation_number: a.accreditation_number ?? "",
    notice_reference: a.notice_reference ?? "",
    parts: partsText(a.parts),
    result: HRW_STAGES[a.stage],
    nsa_number: a.nsa_number ?? "",
    nsa_date: a.nsa_date ?? "",
  };
}
