import crypto from "node:crypto";
import { afterKey, keysetRows } from "../batches.server";
import type { Selectable } from "kysely";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { HrwAssessmentPartsTable, HrwNoticesTable } from "#db/schema-hrw";
import type { BookingInput, NoticeInput, NsaInput, PartResultInput, RescheduleInput } from "~/schemas/hrw";
import {
  HRW_MESSAGES,
  HRW_STAGES,
  partsText,
  partAccreditationsText,
  NAI_PART_CODES,
  NSA_APPLICATION_DAYS,
  HRW_STATES,
  LOCATION_STATE_REGULATOR,
  type HrwStage,
  prerequisitesOf,
  type HrwState,
  type NaiPart,
} from "~/schemas/hrw-codes";
import { organisationToday } from "~/utils/organisation-calendar";
import { conflict, DomainError, invalid, notFound } from "~/utils/errors";
import { addDays, organisationDate, organisationDayStart } from "~/utils/organisation-calendar";
import { businessDaysBefore } from "./hrw-calendar.server";
import { aenFirstRecordedOn, missingChecks } from "./hrw-candidate.server";
import { coveringAccreditation } from "./hrw-register.server";
import { ruleReader, stateRulesOn, type StateRuleBook } from "./hrw-rules.server";
import { assertCredentialed } from "../standards/trainer-credential.server";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { stampKeepUntil } from "../retention.server";

/**
 * High-risk work licence assessments: the booking, the regulator's notice, the NAI part
 * results (every one kept, the latest per part counts), the NSA, and the views the assessor,
 * the candidate and the regulator's audit read.
 */

/** The last day the candidate may lodge the NSA with the regulator: the state's window, else the national 60 days. */
export const applicationDeadline = (nsaDate: string, rules?: StateRuleBook) => addDays(nsaDate, rules?.number("nsa_application_days") ?? NSA_APPLICATION_DAYS);

/**
 * The last day the regulator must be told of an assessment day, from the state's rules on that
 * day: so many business days (its public holidays skipped) or calendar days before, whichever
 * is earlier; null when the state asks for no notice.
 */
export function noticeDueOn(rules: StateRuleBook, heldOn: string): string | null {
  const business = rules.number("notice_business_days");
  const calendar = rules.number("booking_lead_days");
  const dates = [business === null ? null : businessDaysBefore(heldOn, business, rules.state), calendar === null ? null : addDays(heldOn, -calendar)].filter(
    (d): d is string => d !== null,
  );
  return dates.length ? dates.reduce((a, b) => (a < b ? a : b)) : null;
}

export type HrwNotice = Pick<Selectable<HrwNoticesTable>, "held_on" | "reference" | "sent_on">;

export type PartResult = Pick<Selectable<HrwAssessmentPartsTable>, "part" | "result" | "assessed_on" | "recorded_at"> & {
  /** the accreditation the result was recorded under; null for a result changed on appeal */
  accreditation_number: string | null;
};

export interface HrwAssessment {
  id: string;
  candidate: { id: string; full_name: string };
  course: { id: string; name: string; unit_code: string };
  licence_class: string;
  state: HrwState;
  assessment_date: string;
  start_time: string;
  hours: number | null;
  location: { id: string; name: string; identifier: string };
  assessor: { id: string; full_name: string };
  accreditation_number: string | null;
  plant_description: string;
  plant_registration: string;
  notice_due_on: string | null;
  /** the notice for the booked day's reference, when given */
  notice_reference: string | null;
  /** every notice given, one per day it covers */
  notices: HrwNotice[];
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
  /** one state's regulator's assessments */
  state?: string | null;
  assessorId?: string;
  candidateId?: string;
  id?: string;
  limit?: number;
  /** the assessments after this one in the report's order (date, start, id): the CSV's next batch */
  after?: { assessment_date: string; start_time: string; id: string };
}

/** The audit report's ceiling: a period that holds more is narrowed, and the page says so. */
export const HRW_REPORT_LIMIT = 2000;

/**
 * Every assessment of a period for the CSV, no ceiling: the page's query a batch at a time
 * (each batch with its parts and notices), as the download reads on.
 */
export function hrwReportRows(db: DB, filter: Omit<HrwFilter, "after" | "limit">): AsyncGenerator<HrwAssessment, void, undefined> {
  return keysetRows((after: HrwFilter["after"] | null, limit) => listHrwAssessments(db, { ...filter, after: after ?? undefined, limit }));
}

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
      "a.hours",
      "a.location_id",
      "l.name as location_name",
      "l.identifier as location_identifier",
      "a.assessor_id",
      "t.full_name as assessor_name",
      "acc.number as accreditation_number",
      "a.plant_description",
      "a.plant_registration",
      "a.notice_due_on",
      "a.nsa_number",
      "a.nsa_date",
    ]);
  if (filter.from) query = query.where("a.assessment_date", ">=", filter.from);
  if (filter.to) query = query.where("a.assessment_date", "<=", filter.to);
  if (filter.state) query = query.where("a.state", "=", filter.state);
  if (filter.assessorId) query = query.where("a.assessor_id", "=", filter.assessorId);
  if (filter.candidateId) query = query.where("a.candidate_id", "=", filter.candidateId);
  if (filter.id) query = query.where("a.id", "=", filter.id);
  if (filter.after)
    query = query.where(
      afterKey([
        ["a.assessment_date", "asc", filter.after.assessment_date],
        ["a.start_time", "asc", filter.after.start_time],
        ["a.id", "asc", filter.after.id],
      ]),
    );
  const rows = await query
    .orderBy("a.assessment_date")
    .orderBy("a.start_time")
    .orderBy("a.id")
    .limit(filter.limit ?? HRW_REPORT_LIMIT)
    .execute();
  if (rows.length === 0) return [];
  const parts = await db
    .selectFrom("hrw_assessment_parts as p")
    .leftJoin("hrw_accreditations as pa", "pa.id", "p.accreditation_id")
    .select(["p.assessment_id", "p.part", "p.result", "p.assessed_on", "p.recorded_at", "pa.number as accreditation_number"])
    .where(
      "p.assessment_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("p.assessed_on")
    .orderBy("p.recorded_at")
    .orderBy("p.id")
    .execute();
  const noticeRows = await db
    .selectFrom("hrw_notices")
    .select(["assessment_id", "held_on", "reference", "sent_on"])
    .where(
      "assessment_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("held_on")
    .execute();
  const notices = new Map<string, HrwNotice[]>();
  for (const n of noticeRows)
    notices.set(n.assessment_id, [...(notices.get(n.assessment_id) ?? []), { held_on: n.held_on, reference: n.reference, sent_on: n.sent_on }]);
  const history = new Map<string, PartResult[]>();
  for (const p of parts)
    history.set(p.assessment_id, [
      ...(history.get(p.assessment_id) ?? []),
      { part: p.part, result: p.result, assessed_on: p.assessed_on, recorded_at: p.recorded_at, accreditation_number: p.accreditation_number },
    ]);
  const rulesOn = await ruleReader(db);
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
      hours: r.hours === null ? null : Number(r.hours),
      location: { id: r.location_id, name: r.location_name, identifier: r.location_identifier },
      assessor: { id: r.assessor_id, full_name: r.assessor_name },
      accreditation_number: r.accreditation_number,
      plant_description: r.plant_description,
      plant_registration: r.plant_registration,
      notice_due_on: r.notice_due_on,
      notice_reference: (notices.get(r.id) ?? []).find((n) => n.held_on === r.assessment_date)?.reference ?? null,
      notices: notices.get(r.id) ?? [],
      nsa_number: r.nsa_number,
      nsa_date: r.nsa_date,
      parts: latest,
      history: all,
      application_deadline: r.nsa_date ? applicationDeadline(r.nsa_date, rulesOn(r.state, r.nsa_date)) : null,
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
  if (input.assessment_date < organisationToday(now))
    throw invalid("The assessment date cannot be in the past", { assessment_date: "The assessment date cannot be in the past" });
  const at = now.toISOString();
  const id = crypto.randomUUID();
  return writeTransaction(db, async (trx) => {
    const course = await trx
      .selectFrom("courses")
      .select(["id", "licence_class", "licence_prerequisites"])
      .where("id", "=", input.course_id)
      .executeTakeFirst();
    if (!course) throw new DomainError(404, "Course not found", {}, "course_id");
    if (!course.licence_class) throw new DomainError(409, HRW_MESSAGES.noLicenceClass, {}, "course_id");
    const assessor = await trx
      .selectFrom("users")
      .select("id")
      .where("id", "=", input.assessor_id)
      .where("role", "=", "trainer")
      .where("is_active", "=", 1)
      .executeTakeFirst();
    if (!assessor) throw new DomainError(409, HRW_MESSAGES.notATrainer, {}, "assessor_id");
    const location = await trx.selectFrom("delivery_locations").select(["id", "state"]).where("id", "=", input.location_id).executeTakeFirst();
    if (!location) throw new DomainError(404, "Location not found", {}, "location_id");
    // the regulator of the state the assessment is held in, unless the booking names another
    const state = input.state ?? (location.state ? LOCATION_STATE_REGULATOR[location.state] : undefined);
    if (!state) throw invalid(HRW_MESSAGES.noLocationState, { state: HRW_MESSAGES.noLocationState });
    const candidate = await trx
      .selectFrom("users")
      .select("id")
      .where("id", "=", input.candidate_id)
      .where("role", "=", "student")
      .where("is_active", "=", 1)
      .executeTakeFirst();
    if (!candidate) throw new DomainError(409, HRW_MESSAGES.notAStudent, {}, "candidate_id");
    const missing = await missingChecks(trx, input.candidate_id, { date: input.assessment_date, prerequisites: prerequisitesOf(course) });
    if (missing.length) throw new DomainError(409, HRW_MESSAGES.checksMissing(missing), {}, "candidate_id");
    const rules = await stateRulesOn(trx, state, input.assessment_date);
    assertBookableDate(rules, input.assessment_date, now);
    await trx
      .insertInto("hrw_assessments")
      .values({
        id,
        ...input,
        state,
        hours: input.hours ?? null,
        licence_class: course.licence_class,
        notice_due_on: noticeDueOn(rules, input.assessment_date),
        booked_by: actorId,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await recordAudit(trx, {
      action: "hrw.assessment_booked",
      actor,
      subject: { type: "hrw_assessment", id, userId: input.candidate_id },
      detail: `${course.licence_class} in ${state} on ${input.assessment_date}`,
      now: at,
    });
    return { id };
  });
}

/**
 * Refuses (on the date field) an assessment date the state's rules no longer allow by `now`:
 * inside its booking lead time, or past the day its regulator notice was due, as no notice
 * given from now on could be on time.
 */
function assertBookableDate(rules: StateRuleBook, date: string, now: Date): void {
  const today = organisationToday(now);
  const lead = rules.number("booking_lead_days");
  const earliest = lead === null ? null : addDays(today, lead);
  if (earliest && date < earliest) throw invalid(HRW_MESSAGES.bookingLead(lead!, earliest), { assessment_date: HRW_MESSAGES.bookingLead(lead!, earliest) });
  const due = noticeDueOn(rules, date);
  if (due && due < today) throw invalid(HRW_MESSAGES.noticeWouldBeLate(due), { assessment_date: HRW_MESSAGES.noticeWouldBeLate(due) });
}

async function assessmentForAssessor(trx: DB, id: string, actorId: string) {
  const row = await trx
    .selectFrom("hrw_assessments")
    .select(["id", "assessor_id", "candidate_id", "state", "licence_class", "assessment_date", "start_time", "notice_due_on", "nsa_number", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound("Assessment");
  // trainers record only as themselves: the booked assessor, nobody on their behalf
  if (row.assessor_id !== actorId) throw new DomainError(403, HRW_MESSAGES.notYourAssessment);
  return row;
}

/**
 * Records a notice given to the regulator for one day of the assessment (the booked day unless
 * told), with the day it was given: refused when given after the state's deadline for that day
 * (the part must be held on another day), in the future or before the booking was made, or
 * twice for one day.
 */
export async function recordNotice(db: DB, id: string, input: NoticeInput, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  const actorId = actor.id;
  const today = organisationToday(now);
  await writeTransaction(db, async (trx) => {
    const row = await assessmentForAssessor(trx, id, actorId);
    if (row.nsa_number) throw conflict(HRW_MESSAGES.nsaAlready);
    const heldOn = input.held_on ?? row.assessment_date;
    const sentOn = input.sent_on ?? today;
    if (heldOn < row.assessment_date) throw invalid(HRW_MESSAGES.noticeBeforeBooking, { held_on: HRW_MESSAGES.noticeBeforeBooking });
    if (sentOn > today) throw invalid(HRW_MESSAGES.noticeSentFuture, { sent_on: HRW_MESSAGES.noticeSentFuture });
    // a notice dated before the booking existed would let a late booking pass as noticed in time
    const bookedOn = organisationDate(row.created_at);
    if (sentOn < bookedOn) throw invalid(HRW_MESSAGES.noticeSentBeforeBooked(bookedOn), { sent_on: HRW_MESSAGES.noticeSentBeforeBooked(bookedOn) });
    const due = noticeDueOn(await stateRulesOn(trx, row.state, heldOn), heldOn);
    if (due && sentOn > due) throw conflict(HRW_MESSAGES.noticeLate(heldOn, due), "sent_on");
    const taken = await trx.selectFrom("hrw_notices").select("id").where("assessment_id", "=", id).where("held_on", "=", heldOn).executeTakeFirst();
    if (taken) throw conflict(HRW_MESSAGES.noticeTaken(heldOn), "held_on");
    const at = now.toISOString();
    await trx
      .insertInto("hrw_notices")
      .values({
        id: crypto.randomUUID(),
        assessment_id: id,
        held_on: heldOn,
        reference: input.notice_reference,
        sent_on: sentOn,
        recorded_at: at,
        recorded_by: actorId,
      })
      .execute();
    await trx.updateTable("hrw_assessments").set({ updated_at: at }).where("id", "=", id).execute();
    await recordAudit(trx, {
      action: "hrw.notice_recorded",
      actor,
      subject: { type: "hrw_assessment", id, userId: row.candidate_id },
      detail: `${input.notice_reference} for ${heldOn}, given ${sentOn}`,
      now: at,
    });
  });
}

/**
 * The notice a part assessed on `day` needs, by the state's rules on that day: none when the
 * state asks for none; with a notice for each part day, the day's own notice, or (for a first
 * attempt) the day before's when a part was held then (consecutive days share one notice); a
 * reassessment always needs its own. Where the state schedules each assessment day ahead, the
 * day's own scheduling. Otherwise the booking's one notice. Null when covered.
 */
async function missingNotice(trx: DB, row: { id: string; state: string; assessment_date: string }, day: string, part: string): Promise<string | null> {
  const rules = await stateRulesOn(trx, row.state, day);
  if (noticeDueOn(rules, day) === null) return null;
  const notices = await trx.selectFrom("hrw_notices").select("held_on").where("assessment_id", "=", row.id).execute();
  const noticed = new Set(notices.map((n) => n.held_on));
  if (!rules.flag("notice_each_part_day")) {
    if (!noticed.size) return HRW_MESSAGES.noticeMissing(noticeDueOn(rules, row.assessment_date) ?? row.assessment_date);
    // a state that schedules each assessment with its regulator ahead (a booking lead time)
    // knows only the days scheduled: a part held on another day, a reassessment included,
    // needs that day scheduled too, within the same lead time
    if (rules.number("booking_lead_days") !== null && !noticed.has(day)) return HRW_MESSAGES.scheduledDayNotice(day);
    return null;
  }
  if (noticed.has(day)) return null;
  const parts = await trx.selectFrom("hrw_assessment_parts").select(["part", "assessed_on"]).where("assessment_id", "=", row.id).execute();
  const reassessment = parts.some((p) => p.part === part && p.assessed_on < day) || parts.some((p) => p.part === part && p.assessed_on === day);
  if (!reassessment && parts.some((p) => p.assessed_on === addDays(day, -1))) return null;
  return reassessment ? HRW_MESSAGES.reassessmentNotice(day) : HRW_MESSAGES.dayNotice(day);
}

/**
 * Records one NAI part's result as the booked assessor. Refused while a required regulator
 * notice is missing, where the state needs an AEN and none was recorded by the day assessed,
 * after the NSA, and (409) when no accreditation period of the assessor, recorded before now,
 * covers the class in the booking's state on the day the part was assessed.
 */
export async function recordPartResult(db: DB, id: string, input: PartResultInput, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  const actorId = actor.id;
  await writeTransaction(db, async (trx) => {
    const row = await assessmentForAssessor(trx, id, actorId);
    if (row.nsa_number) throw conflict(HRW_MESSAGES.nsaAlready);
    if (input.assessed_on < row.assessment_date) throw invalid(HRW_MESSAGES.resultBeforeDate, { assessed_on: HRW_MESSAGES.resultBeforeDate });
    if (input.assessed_on > organisationToday(now)) throw invalid(HRW_MESSAGES.resultInFuture, { assessed_on: HRW_MESSAGES.resultInFuture });
    const rules = await stateRulesOn(trx, row.state, input.assessed_on);
    if (rules.flag("aen_required")) {
      const aenOn = await aenFirstRecordedOn(trx, row.candidate_id, row.state);
      if (!aenOn) throw conflict(HRW_MESSAGES.aenMissing);
      if (input.assessed_on < aenOn) throw conflict(HRW_MESSAGES.aenAfterAssessment(aenOn), "assessed_on");
    }
    const notice = await missingNotice(trx, row, input.assessed_on, input.part);
    if (notice) throw conflict(notice);
    const at = now.toISOString();
    const accreditation = await coveringAccreditation(trx, {
      trainerId: actorId,
      state: row.state as HrwState,
      licenceClass: row.licence_class,
      date: input.assessed_on,
      recordedBy: at,
    });
    if (!accreditation) throw conflict(HRW_MESSAGES.notCovered(row.licence_class, input.assessed_on));
    // the licence course's unit, as for any unit's result: the assessor holds it on the day assessed
    const course = await trx
      .selectFrom("hrw_assessments as a")
      .innerJoin("courses as c", "c.id", "a.course_id")
      .select("c.unit_code")
      .where("a.id", "=", id)
      .executeTakeFirstOrThrow();
    await assertCredentialed(trx, actorId, course.unit_code, [input.assessed_on], "part");
    await trx
      .insertInto("hrw_assessment_parts")
      .values({
        id: crypto.randomUUID(),
        assessment_id: id,
        part: input.part,
        result: input.result,
        assessed_on: input.assessed_on,
        recorded_by: actorId,
        recorded_at: at,
        accreditation_id: accreditation.id,
      })
      .execute();
    // the assessment's own is the latest part's; each part keeps its own for the audit
    await trx.updateTable("hrw_assessments").set({ accreditation_id: accreditation.id, updated_at: at }).where("id", "=", id).execute();
    // the latest part result is the judgement the evidence's keep-until day runs from
    await stampKeepUntil(trx, { assessment: { kind: "hrw", id } });
    await recordAudit(trx, {
      action: "hrw.result_recorded",
      actor,
      subject: { type: "hrw_assessment", id, userId: row.candidate_id },
      detail: `${input.part}: ${input.result} on ${input.assessed_on} under accreditation ${accreditation.number}`,
      now: at,
    });
  });
}

/** The instant a booked assessment starts (its date and time are the organisation's). */
function startsAt(date: string, time: string): number {
  const [h, m] = time.split(":").map(Number) as [number, number];
  return Date.parse(organisationDayStart(date)) + (h * 60 + m) * 60_000;
}

/**
 * Moves a booking to another date or time, as the booked assessor, before any result: refused
 * closer to its start than the state's change lead time, or to a date inside its booking lead
 * time. The notice deadline follows the new date; notices already given stay with their days.
 */
export async function rescheduleAssessment(db: DB, id: string, input: RescheduleInput, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  await writeTransaction(db, async (trx) => {
    const row = await assessmentForAssessor(trx, id, actor.id);
    const parts = await trx.selectFrom("hrw_assessment_parts").select("id").where("assessment_id", "=", id).executeTakeFirst();
    if (parts || row.nsa_number) throw conflict(HRW_MESSAGES.resultsRecorded);
    const hours = (await stateRulesOn(trx, row.state, row.assessment_date)).number("change_lead_hours");
    if (hours !== null && now.getTime() > startsAt(row.assessment_date, row.start_time) - hours * 3_600_000) throw conflict(HRW_MESSAGES.changeLead(hours));
    if (input.assessment_date < organisationToday(now))
      throw invalid("The assessment date cannot be in the past", { assessment_date: "The assessment date cannot be in the past" });
    const rules = await stateRulesOn(trx, row.state, input.assessment_date);
    assertBookableDate(rules, input.assessment_date, now);
    const at = now.toISOString();
    await trx
      .updateTable("hrw_assessments")
      .set({ assessment_date: input.assessment_date, start_time: input.start_time, notice_due_on: noticeDueOn(rules, input.assessment_date), updated_at: at })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      action: "hrw.assessment_rescheduled",
      actor,
      subject: { type: "hrw_assessment", id, userId: row.candidate_id },
      detail: `${row.assessment_date} ${row.start_time} to ${input.assessment_date} ${input.start_time}`,
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
    if (input.nsa_date < lastPart)
      throw invalid("The NSA date cannot be before the last part was assessed", { nsa_date: "The NSA date cannot be before the last part was assessed" });
    if (input.nsa_date > organisationToday(now)) throw invalid("The NSA date cannot be in the future", { nsa_date: "The NSA date cannot be in the future" });
    const taken = await trx.selectFrom("hrw_assessments").select("id").where("nsa_number", "=", input.nsa_number).executeTakeFirst();
    if (taken) throw conflict(HRW_MESSAGES.nsaTaken, "nsa_number");
    await trx
      .updateTable("hrw_assessments")
      .set({ nsa_number: input.nsa_number, nsa_date: input.nsa_date, nsa_recorded_by: actorId, updated_at: now.toISOString() })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      action: "hrw.nsa_recorded",
      actor,
      subject: { type: "hrw_assessment", id, userId: row.candidate_id },
      detail: `${input.nsa_number} dated ${input.nsa_date}`,
      now,
    });
  });
}

/** The assessor's "Notify the regulator by DATE" list: bookings whose notice is not recorded yet. */
export async function noticesDue(
  db: DB,
  assessorId: string,
): Promise<Array<{ id: string; candidate_name: string; licence_class: string; state: string; assessment_date: string; notice_due_on: string }>> {
  const rows = await db
    .selectFrom("hrw_assessments as a")
    .innerJoin("users as c", "c.id", "a.candidate_id")
    .select(["a.id", "c.full_name as candidate_name", "a.licence_class", "a.state", "a.assessment_date", "a.notice_due_on"])
    .where("a.assessor_id", "=", assessorId)
    .where("a.notice_due_on", "is not", null)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom("hrw_notices as n").select("n.id").whereRef("n.assessment_id", "=", "a.id").whereRef("n.held_on", "=", "a.assessment_date")),
      ),
    )
    .where("a.nsa_number", "is", null)
    .orderBy("a.notice_due_on")
    .orderBy("a.id")
    .limit(50)
    .execute();
  return rows.map((r) => ({ ...r, notice_due_on: r.notice_due_on! }));
}

/**
 * The candidate's licence applications still open: "Apply for your CN licence by DATE", the
 * deadline from the state's window on the NSA's date, and the state's words for where to apply.
 */
export async function licenceApplicationsDue(
  db: DB,
  candidateId: string,
  today: string,
): Promise<Array<{ id: string; licence_class: string; state: string; nsa_number: string; deadline: string; apply_where: string }>> {
  return (await licenceApplicationsDueFor(db, [candidateId], today)).get(candidateId) ?? [];
}

/** The same for several candidates in one query (an employer's workers), by candidate. */
export async function licenceApplicationsDueFor(
  db: DB,
  candidateIds: string[],
  today: string,
): Promise<Map<string, Array<{ id: string; licence_class: string; state: string; nsa_number: string; deadline: string; apply_where: string }>>> {
  const due = new Map<string, Array<{ id: string; licence_class: string; state: string; nsa_number: string; deadline: string; apply_where: string }>>();
  if (candidateIds.length === 0) return due;
  const rows = await db
    .selectFrom("hrw_assessments")
    .select(["id", "candidate_id", "licence_class", "state", "nsa_number", "nsa_date"])
    .where("candidate_id", "in", candidateIds)
    .where("nsa_date", ">=", addDays(today, -LONGEST_APPLICATION_WINDOW_DAYS))
    .orderBy("nsa_date")
    .orderBy("id")
    .execute();
  const rulesOn = await ruleReader(db);
  for (const r of rows) {
    if (!r.nsa_number || !r.nsa_date) continue;
    const rules = rulesOn(r.state, r.nsa_date);
    const deadline = applicationDeadline(r.nsa_date, rules);
    if (deadline < today) continue;
    due.set(r.candidate_id, [
      ...(due.get(r.candidate_id) ?? []),
      { id: r.id, licence_class: r.licence_class, state: r.state, nsa_number: r.nsa_number, deadline, apply_where: applyWhere(rules) },
    ]);
  }
  return due;
}

/** Where the candidate applies, in the state's words, else its regulator's name. */
export const applyWhere = (rules: StateRuleBook) => rules.text("apply_where") ?? `with ${HRW_STATES[rules.state] ?? rules.state}`;

/** No state's window is read past this (a year): older NSAs are long lapsed. */
const LONGEST_APPLICATION_WINDOW_DAYS = 366;

/** What the booking form offers: licence courses, active trainers as assessors, delivery locations. */
export async function bookingOptions(db: DB) {
  const [courses, assessors, locations] = await Promise.all([
    db
      .selectFrom("courses")
      .select(["id", "name", "unit_code", "licence_class"])
      .where("licence_class", "is not", null)
      .where("is_active", "=", 1)
      .orderBy("licence_class")
      .orderBy("name")
      .execute(),
    db
      .selectFrom("users")
      .select(["id", "full_name"])
      .where("role", "=", "trainer")
      .where("is_active", "=", 1)
      .where("approval_status", "=", "approved")
      .orderBy("full_name")
      .limit(200)
      .execute(),
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
  "part_accreditations",
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
    part_accreditations: partAccreditationsText(a.parts),
    result: HRW_STAGES[a.stage],
    nsa_number: a.nsa_number ?? "",
    nsa_date: a.nsa_date ?? "",
  };
}

/**
 * Records a part's result set by an upheld appeal (complaint.server.ts decides who may), inside
 * the appeal's write transaction: a new result of the part, dated the day of the decision and
 * recorded by the decider, so the latest result counts and the assessor's stays in the history.
 */
export async function changePartResultOnAppeal(
  trx: WriteTransaction,
  input: {
    assessmentId: string;
    part: "knowledge" | "calculations" | "practical";
    result: "satisfactory" | "not_yet_satisfactory";
    reference: string;
    actor: { id: string; client?: string | null };
    now: Date;
  },
): Promise<void> {
  const row = await trx.selectFrom("hrw_assessments").select(["id", "candidate_id"]).where("id", "=", input.assessmentId).executeTakeFirst();
  if (!row) throw notFound("Assessment");
  const at = input.now.toISOString();
  await trx
    .insertInto("hrw_assessment_parts")
    .values({
      id: crypto.randomUUID(),
      assessment_id: row.id,
      part: input.part,
      result: input.result,
      assessed_on: organisationToday(input.now),
      recorded_by: input.actor.id,
      recorded_at: at,
      accreditation_id: null,
    })
    .execute();
  await trx.updateTable("hrw_assessments").set({ updated_at: at }).where("id", "=", row.id).execute();
  await stampKeepUntil(trx, { assessment: { kind: "hrw", id: row.id } });
  await recordAudit(trx, {
    action: "hrw.result_changed_on_appeal",
    actor: input.actor,
    subject: { type: "hrw_assessment", id: row.id, userId: row.candidate_id },
    detail: `${input.part}: ${input.result} (${input.reference})`,
    now: at,
  });
}
