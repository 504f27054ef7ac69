import crypto from "node:crypto";
import { sql, type Expression, type SqlBool } from "kysely";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { ComplaintKind, ComplaintOutcome, ComplaintStatus } from "#db/schema-complaints";
import type { AssessmentKind } from "#db/schema-evidence";
import type { Role } from "#db/schema";
import { recognitionTitle } from "~/schemas/recognition";
import type { AppealInput, ComplaintInput, ComplaintListQuery, ComplaintSettingsInput, ResolveInput } from "~/schemas/complaint";
import {
  COMPLAINT_MESSAGES,
  DEFAULT_ACKNOWLEDGE_BUSINESS_DAYS,
  DEFAULT_RESOLVE_DAYS,
  KIND_LABELS,
  OUTCOME_LABELS,
  OVERDUE_LABELS,
  STATUS_LABELS,
  defaultPolicyText,
  describeChange,
  isReopened,
} from "~/schemas/complaint-text";
import { RATE_LIMITS, takeRateLimit } from "~/security/rate-limits.server";
import { conflict, DomainError, invalid, notFound, tooMany } from "~/utils/errors";
import { addDays, organisationDate, organisationToday, organisationYear } from "~/utils/organisation-calendar";
import { changeResultOnAppeal } from "./assessment.server";
import { recordAudit, actorOf, signedInActor, type ActorRef, type SignedInActorRef } from "./audit.server";
import { afterKey, keysetRows } from "./batches.server";
import { assessmentFor } from "./evidence.server";
import { changePartResultOnAppeal } from "./hrw-assessment.server";
import { isBusinessDay } from "./hrw-calendar.server";
import { queueMail } from "./outbox.server";
import { reopenRecognitionOnAppeal } from "./recognition-decisions.server";
import { complaintFieldsFor, type ComplaintReader } from "./personal-data.server";
import { queueWebhookEvent } from "./webhook-events.server";

/**
 * Complaints and appeals. Anyone lodges a complaint (anonymous allowed); a learner appeals a
 * decision on one of their own assessments. Each gets a reference (C-2026-0001, A-2026-0001)
 * and, when there is somewhere to send it, an acknowledgement mail queued in the same
 * transaction. Two clocks start when it is received: acknowledge-by, in business days (weekdays
 * that are not New South Wales public holidays, the organisation's state), and resolve-by, in
 * calendar days, both counted on the organisation's calendar. An item flows received ->
 * acknowledged -> resolved, each step with who and when, each in the audit trail. An appeal is
 * decided by a staff member other than the assessor whose decision it is; a changed result is
 * applied to the assessment through its own model, audited there.
 * docs/decisions/029-complaints-and-appeals.md gives the figures.
 */

/** The state whose public holidays the acknowledge clock skips: where the organisation is. */
export const ORGANISATION_STATE = "NSW" as const;

export interface ComplaintSettings {
  acknowledge_business_days: number;
  resolve_days: number;
  policy: string;
  /** whether the policy is the one written for the organisation by default (no admin has set it) */
  policy_is_default: boolean;
}

/** The clocks' lengths and the policy: as admins set them, else the defaults. */
export async function complaintSettings(db: DB, rto: { name: string; code: string }): Promise<ComplaintSettings> {
  const rows = await db.selectFrom("complaint_settings").select(["key", "value"]).execute();
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  const policy = byKey.get("policy");
  return {
    acknowledge_business_days: Number(byKey.get("acknowledge_business_days") ?? DEFAULT_ACKNOWLEDGE_BUSINESS_DAYS),
    resolve_days: Number(byKey.get("resolve_days") ?? DEFAULT_RESOLVE_DAYS),
    policy: policy ?? defaultPolicyText(rto),
    policy_is_default: policy === undefined,
  };
}

/** Saves the settings (administrators); the audit entry names the fields that changed. Clocks already running keep their days. */
export async function saveComplaintSettings(
  db: DB,
  input: ComplaintSettingsInput,
  actorRef: SignedInActorRef,
  rto: { name: string; code: string },
  now = new Date(),
): Promise<void> {
  const actor = signedInActor(actorRef);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const before = await complaintSettings(trx, rto);
    const values = { acknowledge_business_days: String(input.acknowledge_business_days), resolve_days: String(input.resolve_days), policy: input.policy };
    const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
      (k) => String(before[k]) !== values[k] || (k === "policy" && before.policy_is_default),
    );
    if (changed.length === 0) return;
    for (const key of changed) {
      await trx
        .insertInto("complaint_settings")
        .values({ key, value: values[key], updated_by: actor.id, updated_at: at })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: values[key], updated_by: actor.id, updated_at: at }))
        .execute();
    }
    await recordAudit(trx, { action: "complaints.settings_changed", actor, subject: { type: "complaint_settings", id: null }, fields: changed, now: at });
  });
}

/** The day `businessDays` business days after `date` (weekends and the organisation's state's public holidays skipped). */
export function addBusinessDays(date: string, businessDays: number): string {
  let day = date;
  let left = businessDays;
  while (left > 0) {
    day = addDays(day, 1);
    if (isBusinessDay(day, ORGANISATION_STATE)) left -= 1;
  }
  return day;
}

/** The clocks of an item received at `receivedAt`: the last day to acknowledge it and the last day to resolve it. */
export function clocksFor(
  receivedAt: Date,
  settings: Pick<ComplaintSettings, "acknowledge_business_days" | "resolve_days">,
): { acknowledge_by: string; resolve_by: string } {
  const day = organisationToday(receivedAt);
  return { acknowledge_by: addBusinessDays(day, settings.acknowledge_business_days), resolve_by: addDays(day, settings.resolve_days) };
}

/** Which clock an item has run past on `today`, if any: not acknowledged after acknowledge-by, or not resolved after resolve-by. */
export function overdueClock(item: { status: ComplaintStatus; acknowledge_by: string; resolve_by: string }, today: string): "acknowledge" | "resolve" | null {
  if (item.status === "resolved") return null;
  if (item.resolve_by < today) return "resolve";
  if (item.status === "received" && item.acknowledge_by < today) return "acknowledge";
  return null;
}

/** The same test in SQL, for the register's filter and order. */
function overdueSql(today: string): Expression<SqlBool> {
  return sql<SqlBool>`(c.status <> 'resolved' and (c.resolve_by < ${today} or (c.status = 'received' and c.acknowledge_by < ${today})))`;
}

/**
 * The next reference of a series, e.g. C-2026-0007: from a counter that only grows (one upsert,
 * so two lodged at once take different numbers on either database). Inside the lodging transaction.
 */
async function nextReference(trx: WriteTransaction, kind: ComplaintKind, at: Date): Promise<string> {
  const series = `${kind === "appeal" ? "A" : "C"}-${organisationYear(at)}`;
  const row = await trx
    .insertInto("complaint_sequence")
    .values({ series, last_value: 1 })
    .onConflict((oc) => oc.column("series").doUpdateSet({ last_value: sql`complaint_sequence.last_value + 1` }))
    .returning("last_value")
    .executeTakeFirstOrThrow();
  return `${series}-${String(row.last_value).padStart(4, "0")}`;
}

export interface Lodged {
  id: string;
  reference: string;
  acknowledge_by: string;
  resolve_by: string;
  /** whether an acknowledgement mail was queued (not when there is nowhere to send it) */
  mailed: boolean;
}

type Rto = { name: string; code: string };

/**
 * Lodges a complaint: a visitor's (name and contact optional), or a signed-in person's (linked
 * to their account, and mailed there). The acknowledgement mail is queued with it when there is
 * an address; the reference is returned either way, for the page to show.
 *
 * Each may mail an address nobody has proven, so a client (`by.client`) lodges at most
 * RATE_LIMITS.complaintClient an hour, and a typed address is acknowledged at most
 * RATE_LIMITS.complaintEmail times a day whoever asks (429, nothing stored, nothing mailed).
 */
export async function lodgeComplaint(db: DB, input: ComplaintInput, options: { by?: ActorRef; rto: Rto; now?: Date }): Promise<Lodged> {
  const actor = actorOf(options.by ?? null);
  const now = options.now ?? new Date();
  const at = now.toISOString();
  if (actor.client) {
    const typed = actor.id === null && input.email ? input.email : null;
    const rules = typed ? [RATE_LIMITS.complaintClient, RATE_LIMITS.complaintEmail] : [RATE_LIMITS.complaintClient];
    const decision = await takeRateLimit(db, rules, { client: actor.client, email: typed ?? undefined }, now);
    if (!decision.ok) {
      if (decision.rule === RATE_LIMITS.complaintEmail)
        throw new DomainError(429, COMPLAINT_MESSAGES.tooManyForEmail, { email: COMPLAINT_MESSAGES.tooManyForEmail }, "email", decision.retryAfterSeconds);
      throw tooMany(COMPLAINT_MESSAGES.tooManyFromClient, decision.retryAfterSeconds);
    }
  }
  return writeTransaction(db, async (trx) => {
    const settings = await complaintSettings(trx, options.rto);
    const clocks = clocksFor(now, settings);
    const id = crypto.randomUUID();
    const reference = await nextReference(trx, "complaint", now);
    await trx
      .insertInto("complaints")
      .values({
        id,
        kind: "complaint",
        reference,
        status: "received",
        lodged_by: actor.id,
        name: input.name,
        email: input.email,
        phone: input.phone,
        details: input.details,
        received_at: at,
        ...clocks,
      })
      .execute();
    const recipient = actor.id ?? (input.email ? { email: input.email, name: input.name } : null);
    const mailed = recipient
      ? (await queueMail(trx, {
          key: `complaint-received:${id}`,
          template: "complaint-received",
          recipientId: recipient,
          data: { kind: "complaint", reference, acknowledgeBy: clocks.acknowledge_by, resolveBy: clocks.resolve_by, path: "/complaints/policy" },
          now,
        })) !== null
      : false;
    await recordAudit(trx, { action: "complaint.lodged", actor, subject: { type: "complaint", id, userId: actor.id }, detail: reference, now: at });
    await queueWebhookEvent(trx, { type: "complaint.lodged", subjectId: id, now: at });
    return { id, reference, ...clocks, mailed };
  });
}

/**
 * Lodges a learner's appeal of a decision on one of their own assessments: someone else's, or
 * an unknown one, is not found; one with no result yet, or with an appeal still open, is refused.
 */
export async function lodgeAppeal(db: DB, input: AppealInput, options: { by: SignedInActorRef; rto: Rto; now?: Date }): Promise<Lodged> {
  const actor = signedInActor(options.by);
  const now = options.now ?? new Date();
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    const assessment = await assessmentFor(trx, { id: actor.id, role: "student" }, { kind: input.assessment_kind, id: input.assessment_id });
    if (!assessment.result_on || !assessment.assessor) throw conflict(COMPLAINT_MESSAGES.noResultYet);
    const open = await trx
      .selectFrom("complaints")
      .select("id")
      .where("assessment_kind", "=", input.assessment_kind)
      .where("assessment_id", "=", input.assessment_id)
      .where("status", "<>", "resolved")
      .executeTakeFirst();
    if (open) throw conflict(COMPLAINT_MESSAGES.alreadyAppealed);
    const settings = await complaintSettings(trx, options.rto);
    const clocks = clocksFor(now, settings);
    const id = crypto.randomUUID();
    const reference = await nextReference(trx, "appeal", now);
    await trx
      .insertInto("complaints")
      .values({
        id,
        kind: "appeal",
        reference,
        status: "received",
        lodged_by: actor.id,
        details: input.details,
        assessment_kind: input.assessment_kind,
        assessment_id: input.assessment_id,
        assessor_id: assessment.assessor.id,
        received_at: at,
        ...clocks,
      })
      .execute();
    await queueMail(trx, {
      key: `complaint-received:${id}`,
      template: "complaint-received",
      recipientId: actor.id,
      data: {
        kind: "appeal",
        reference,
        acknowledgeBy: clocks.acknowledge_by,
        resolveBy: clocks.resolve_by,
        about: assessment.title,
        path: "/complaints/policy",
      },
      now,
    });
    await recordAudit(trx, {
      action: "appeal.lodged",
      actor,
      subject: { type: "complaint", id, userId: actor.id },
      detail: `${reference}: ${input.assessment_kind} assessment ${input.assessment_id}`,
      now: at,
    });
    return { id, reference, ...clocks, mailed: true };
  });
}

export interface ComplaintRow {
  id: string;
  kind: ComplaintKind;
  reference: string;
  status: ComplaintStatus;
  lodged_by: string | null;
  /** the name given, else the account's */
  name: string | null;
  email: string | null;
  phone: string | null;
  details: string;
  assessment_kind: AssessmentKind | null;
  assessment_id: string | null;
  assessment_title: string | null;
  assessor: { id: string; full_name: string } | null;
  decider: { id: string; full_name: string } | null;
  received_at: string;
  acknowledge_by: string;
  resolve_by: string;
  acknowledged_at: string | null;
  acknowledged_by: { id: string; full_name: string } | null;
  resolved_at: string | null;
  resolved_by: { id: string; full_name: string } | null;
  outcome: ComplaintOutcome | null;
  reasons: string | null;
  changed_result: string | null;
  /** which clock it has run past today, if any */
  overdue: "acknowledge" | "resolve" | null;
}

function baseQuery(db: DB) {
  return db
    .selectFrom("complaints as c")
    .leftJoin("users as lodger", "lodger.id", "c.lodged_by")
    .leftJoin("users as assessor", "assessor.id", "c.assessor_id")
    .leftJoin("users as decider", "decider.id", "c.decider_id")
    .leftJoin("users as ack", "ack.id", "c.acknowledged_by")
    .leftJoin("users as res", "res.id", "c.resolved_by")
    .leftJoin("assessments as ua", (j) => j.onRef("ua.id", "=", "c.assessment_id").on("c.assessment_kind", "=", "unit"))
    .leftJoin("hrw_assessments as ha", (j) => j.onRef("ha.id", "=", "c.assessment_id").on("c.assessment_kind", "=", "hrw"))
    .leftJoin("recognition_applications as ra", (j) => j.onRef("ra.id", "=", "c.assessment_id").on("c.assessment_kind", "=", "recognition"))
    .leftJoin("courses as rc", "rc.id", "ra.course_id")
    .select([
      "c.id",
      "c.kind",
      "c.reference",
      "c.status",
      "c.lodged_by",
      "c.name",
      "c.email",
      "c.phone",
      "c.details",
      "c.assessment_kind",
      "c.assessment_id",
      "c.received_at",
      "c.acknowledge_by",
      "c.resolve_by",
      "c.acknowledged_at",
      "c.resolved_at",
      "c.outcome",
      "c.reasons",
      "c.changed_result",
      "lodger.full_name as lodger_name",
      "lodger.email as lodger_email",
      "lodger.phone as lodger_phone",
      "c.assessor_id",
      "assessor.full_name as assessor_name",
      "c.decider_id",
      "decider.full_name as decider_name",
      "c.acknowledged_by",
      "ack.full_name as ack_name",
      "c.resolved_by",
      "res.full_name as res_name",
      "ua.assessment_type as unit_title",
      "ha.licence_class as hrw_class",
      "ra.kind as recognition_kind",
      "rc.unit_code as recognition_unit",
    ]);
}

type BaseRow = Awaited<ReturnType<ReturnType<typeof baseQuery>["execute"]>>[number];

const person = (id: string | null, name: string | null | undefined) => (id ? { id, full_name: name ?? "" } : null);

function toRow(r: BaseRow, today: string): ComplaintRow {
  return {
    id: r.id,
    kind: r.kind,
    reference: r.reference,
    status: r.status,
    lodged_by: r.lodged_by,
    name: r.name ?? r.lodger_name ?? null,
    email: r.email ?? r.lodger_email ?? null,
    phone: r.phone ?? r.lodger_phone ?? null,
    details: r.details,
    assessment_kind: r.assessment_kind,
    assessment_id: r.assessment_id,
    assessment_title:
      r.unit_title ??
      (r.hrw_class ? `${r.hrw_class} licence assessment` : r.recognition_kind ? recognitionTitle(r.recognition_kind, r.recognition_unit ?? "") : null),
    assessor: person(r.assessor_id, r.assessor_name),
    decider: person(r.decider_id, r.decider_name),
    received_at: r.received_at,
    acknowledge_by: r.acknowledge_by,
    resolve_by: r.resolve_by,
    acknowledged_at: r.acknowledged_at,
    acknowledged_by: person(r.acknowledged_by, r.ack_name),
    resolved_at: r.resolved_at,
    resolved_by: person(r.resolved_by, r.res_name),
    outcome: r.outcome,
    reasons: r.reasons,
    changed_result: r.changed_result,
    overdue: overdueClock(r, today),
  };
}

/**
 * Who reads which items: admins every one; a trainer only the appeals assigned to them to
 * decide; a learner their own. Anyone else: none (an unknown item and another's are both not found).
 */
function scoped<Q extends ReturnType<typeof baseQuery>>(query: Q, reader: ComplaintReader): Q {
  if (reader.role === "admin") return query;
  if (reader.role === "trainer") return query.where("c.kind", "=", "appeal").where("c.decider_id", "=", reader.id) as Q;
  return query.where("c.lodged_by", "=", reader.id) as Q;
}

/** The register's filters on the reader's items. */
function registerQuery(db: DB, q: ComplaintListQuery, reader: ComplaintReader, today: string) {
  let query = scoped(baseQuery(db), reader);
  if (q.kind) query = query.where("c.kind", "=", q.kind);
  if (q.status === "open") query = query.where("c.status", "<>", "resolved");
  else if (q.status) query = query.where("c.status", "=", q.status);
  if (q.overdue === "yes") query = query.where(overdueSql(today));
  return query;
}

/** The register: filtered, overdue items first, then the newest. Each item as the reader may read it. */
export async function listComplaints(db: DB, q: ComplaintListQuery, reader: ComplaintReader, now = new Date()) {
  const today = organisationToday(now);
  const rows = await registerQuery(db, q, reader, today)
    .orderBy(sql`case when ${overdueSql(today)} then 0 else 1 end`)
    .orderBy("c.received_at", "desc")
    .orderBy("c.id")
    .limit(COMPLAINT_LIST_LIMIT)
    .execute();
  return rows.map((r) => complaintFieldsFor(reader, toRow(r, today)));
}

/**
 * The whole register for its CSV, in the page's order, a batch at a time: the overdue items,
 * then the rest, each part newest first by keyset (the page shows at most
 * COMPLAINT_LIST_LIMIT; the download holds every item the filters name).
 */
export async function* complaintRegisterRows(
  db: DB,
  q: ComplaintListQuery,
  reader: ComplaintReader,
  now = new Date(),
): AsyncGenerator<ComplaintRow, void, undefined> {
  const today = organisationToday(now);
  for (const overdue of [sql<SqlBool>`${overdueSql(today)}`, sql<SqlBool>`not ${overdueSql(today)}`]) {
    yield* keysetRows(async (after: { received_at: string; id: string } | null, limit) => {
      let query = registerQuery(db, q, reader, today).where(overdue);
      if (after)
        query = query.where(
          afterKey([
            ["c.received_at", "desc", after.received_at],
            ["c.id", "asc", after.id],
          ]),
        );
      const rows = await query.orderBy("c.received_at", "desc").orderBy("c.id").limit(limit).execute();
      return rows.map((r) => complaintFieldsFor(reader, toRow(r, today)));
    });
  }
}

/** The most items one register answer holds: years of a small organisation's complaints. */
export const COMPLAINT_LIST_LIMIT = 2000;

/** One item as the reader may read it; not found when they may not. */
export async function getComplaint(db: DB, id: string, reader: ComplaintReader, now = new Date()) {
  const row = await scoped(baseQuery(db), reader).where("c.id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Complaint or appeal");
  return complaintFieldsFor(reader, toRow(row, organisationToday(now)));
}

/** The appeals open on a learner's assessments, by "kind:id", for the assessment pages to show. */
export async function appealsOnAssessments(
  db: DB,
  studentId: string,
): Promise<Map<string, { id: string; reference: string; status: ComplaintStatus; outcome: ComplaintOutcome | null }>> {
  const rows = await db
    .selectFrom("complaints")
    .select(["id", "reference", "status", "outcome", "assessment_kind", "assessment_id", "received_at"])
    .where("kind", "=", "appeal")
    .where("lodged_by", "=", studentId)
    .orderBy("received_at")
    .execute();
  return new Map(rows.map((r) => [`${r.assessment_kind}:${r.assessment_id}`, { id: r.id, reference: r.reference, status: r.status, outcome: r.outcome }]));
}

/** The staff who may be assigned an appeal: active trainers and admins other than its assessor. */
export async function deciderChoices(db: DB, assessorId: string | null): Promise<{ id: string; full_name: string; role: Role }[]> {
  let query = db
    .selectFrom("users")
    .select(["id", "full_name", "role"])
    .where("role", "in", ["trainer", "admin"])
    .where("is_active", "=", 1)
    .where("approval_status", "=", "approved");
  if (assessorId) query = query.where("id", "<>", assessorId);
  return query.orderBy("full_name").execute();
}

async function lockedItem(trx: WriteTransaction, id: string, reader: ComplaintReader) {
  const row = await scoped(baseQuery(trx), reader).where("c.id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Complaint or appeal");
  return row;
}

/** Marks an item acknowledged (staff), recording who and when. */
export async function acknowledgeComplaint(db: DB, id: string, by: SignedInActorRef, reader: ComplaintReader, now = new Date()): Promise<void> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const row = await lockedItem(trx, id, reader);
    if (row.status === "resolved") throw conflict(COMPLAINT_MESSAGES.alreadyResolved);
    if (row.status !== "received") throw conflict(COMPLAINT_MESSAGES.alreadyAcknowledged);
    const changed = await trx
      .updateTable("complaints")
      .set({ status: "acknowledged", acknowledged_at: at, acknowledged_by: actor.id })
      .where("id", "=", id)
      .where("status", "=", "received")
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw conflict(COMPLAINT_MESSAGES.alreadyAcknowledged);
    await recordAudit(trx, {
      action: "complaint.acknowledged",
      actor,
      subject: { type: "complaint", id, userId: row.lodged_by },
      detail: row.reference,
      now: at,
    });
  });
}

/** Assigns an appeal to a staff member to decide (administrators): never its assessor. */
export async function assignDecider(db: DB, id: string, deciderId: string, by: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const row = await lockedItem(trx, id, { id: actor.id, role: "admin" });
    if (row.kind !== "appeal") throw conflict(COMPLAINT_MESSAGES.notAnAppeal);
    if (row.status === "resolved") throw conflict(COMPLAINT_MESSAGES.alreadyResolved);
    if (deciderId === row.assessor_id) throw new DomainError(409, COMPLAINT_MESSAGES.deciderIsAssessor, { decider_id: COMPLAINT_MESSAGES.deciderIsAssessor });
    const choices = await deciderChoices(trx, row.assessor_id);
    const decider = choices.find((c) => c.id === deciderId);
    if (!decider) throw invalid("Choose an active trainer or administrator", { decider_id: "Choose an active trainer or administrator" });
    await trx.updateTable("complaints").set({ decider_id: deciderId }).where("id", "=", id).execute();
    await recordAudit(trx, {
      action: "appeal.assigned",
      actor,
      subject: { type: "complaint", id, userId: row.lodged_by },
      detail: `${row.reference} to ${deciderId}`,
      now: at,
    });
  });
}

/**
 * Resolves a complaint or decides an appeal: the outcome and reasons, recorded with who and
 * when, and mailed to the person who lodged it (when there is an address). An appeal is decided
 * by anyone but its assessor (409), by the staff member assigned to it or an admin; an upheld
 * (or partly upheld) appeal may change the result, applied to the assessment by its own model.
 * Resolving an item never acknowledged acknowledges it at the same moment.
 */
export async function resolveComplaint(
  db: DB,
  id: string,
  input: ResolveInput,
  by: SignedInActorRef,
  reader: ComplaintReader,
  now = new Date(),
): Promise<void> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const row = await lockedItem(trx, id, reader);
    if (row.status === "resolved") throw conflict(COMPLAINT_MESSAGES.alreadyResolved);
    const changesResult = input.new_status !== undefined || input.hrw_part !== undefined;
    let changed: string | null = null;
    if (row.kind === "appeal") {
      if (row.assessor_id === actor.id) throw conflict(COMPLAINT_MESSAGES.deciderIsAssessor);
      if (reader.role !== "admin" && row.decider_id !== actor.id) throw conflict(COMPLAINT_MESSAGES.notAssigned);
      if (changesResult && input.outcome === "dismissed")
        throw invalid(COMPLAINT_MESSAGES.changedResultNeedsUpheld, { outcome: COMPLAINT_MESSAGES.changedResultNeedsUpheld });
      if (changesResult) {
        const change = { reference: row.reference, actor, now };
        if (row.assessment_kind === "unit" && input.new_status) {
          await changeResultOnAppeal(trx, { assessmentId: row.assessment_id!, status: input.new_status, ...change });
          changed = JSON.stringify({ status: input.new_status });
        } else if (row.assessment_kind === "hrw" && input.hrw_part && input.hrw_result) {
          await changePartResultOnAppeal(trx, { assessmentId: row.assessment_id!, part: input.hrw_part, result: input.hrw_result, ...change });
          changed = JSON.stringify({ part: input.hrw_part, result: input.hrw_result });
        } else {
          const message = row.assessment_kind === "unit" ? "Choose the unit's new result" : "Choose the part and its new result";
          throw invalid(message, { [row.assessment_kind === "unit" ? "new_status" : "hrw_part"]: message });
        }
      }
      // an upheld appeal of a credit transfer or RPL decision reopens the application for a new one
      if (row.assessment_kind === "recognition" && input.outcome !== "dismissed" && !changesResult) {
        const reopened = await reopenRecognitionOnAppeal(trx, { applicationId: row.assessment_id!, appeal: { id, reference: row.reference }, actor, now });
        if (reopened) changed = JSON.stringify({ reopened: true });
      }
    } else if (changesResult) {
      throw invalid(COMPLAINT_MESSAGES.notAnAppeal, { new_status: COMPLAINT_MESSAGES.notAnAppeal });
    }
    const update = await trx
      .updateTable("complaints")
      .set({
        status: "resolved",
        resolved_at: at,
        resolved_by: actor.id,
        outcome: input.outcome,
        reasons: input.reasons,
        changed_result: changed,
        ...(row.acknowledged_at ? {} : { acknowledged_at: at, acknowledged_by: actor.id }),
      })
      .where("id", "=", id)
      .where("status", "<>", "resolved")
      .executeTakeFirst();
    if (Number(update.numUpdatedRows) !== 1) throw conflict(COMPLAINT_MESSAGES.alreadyResolved);
    const recipient = row.lodged_by ?? (row.email ? { email: row.email, name: row.name } : null);
    if (recipient) {
      await queueMail(trx, {
        key: `complaint-resolved:${id}`,
        template: "complaint-resolved",
        recipientId: recipient,
        data: {
          kind: row.kind,
          reference: row.reference,
          outcome: input.outcome,
          reasons: input.reasons,
          changedResult: changed ? describeChange(changed) : null,
          reopened: changed ? isReopened(changed) : false,
          path: "/complaints/policy",
        },
        now,
      });
    }
    await recordAudit(trx, {
      action: row.kind === "appeal" ? "appeal.decided" : "complaint.resolved",
      actor,
      subject: { type: "complaint", id, userId: row.lodged_by },
      detail: `${row.reference}: ${OUTCOME_LABELS[input.outcome]}${changed ? `, result changed to ${describeChange(changed)}` : ""}`,
      now: at,
    });
  });
}

/** The register's CSV columns. */
export const COMPLAINT_CSV_COLUMNS = [
  "reference",
  "kind",
  "status",
  "received",
  "acknowledge_by",
  "acknowledged",
  "resolve_by",
  "resolved",
  "overdue",
  "outcome",
  "changed_result",
  "name",
  "email",
  "phone",
  "assessment",
  "assessor",
  "decider",
  "details",
  "reasons",
] as const;

/** One register row for the CSV: days on the organisation's calendar, words as the page shows them. */
export function complaintCsvRow(c: ComplaintRow): Record<(typeof COMPLAINT_CSV_COLUMNS)[number], string> {
  return {
    reference: c.reference,
    kind: KIND_LABELS[c.kind],
    status: STATUS_LABELS[c.status],
    received: organisationDate(c.received_at),
    acknowledge_by: c.acknowledge_by,
    acknowledged: c.acknowledged_at ? organisationDate(c.acknowledged_at) : "",
    resolve_by: c.resolve_by,
    resolved: c.resolved_at ? organisationDate(c.resolved_at) : "",
    overdue: c.overdue ? OVERDUE_LABELS[c.overdue] : "",
    outcome: c.outcome ? OUTCOME_LABELS[c.outcome] : "",
    changed_result: c.changed_result ? describeChange(c.changed_result) : "",
    name: c.name ?? "",
    email: c.email ?? "",
    phone: c.phone ?? "",
    assessment: c.assessment_title ?? "",
    assessor: c.assessor?.full_name ?? "",
    decider: c.decider?.full_name ?? "",
    details: c.details,
    reasons: c.reasons ?? "",
  };
}

export interface DecidedAssessment {
  kind: "unit" | "hrw";
  id: string;
  title: string;
  course: string;
  /** "passed", "failed", or each part's latest result for a licence assessment */
  result: string;
  decided_on: string;
  assessor: string | null;
  appeal: { id: string; reference: string; status: ComplaintStatus; outcome: ComplaintOutcome | null } | null;
}

/** The learner's own assessments that carry a decision (a unit's pass or fail, a licence part's result), newest first, each with its latest appeal. */
export async function decidedAssessmentsOf(db: DB, studentId: string): Promise<DecidedAssessment[]> {
  const [units, hrw, parts, appeals] = await Promise.all([
    db
      .selectFrom("assessments as a")
      .innerJoin("courses", "courses.id", "a.course_id")
      .leftJoin("users as assessor", "assessor.id", "a.assessed_by")
      .select(["a.id", "a.assessment_type", "a.status", "a.assessment_date", "courses.name as course", "assessor.full_name as assessor"])
      .where("a.student_id", "=", studentId)
      .where("a.status", "in", ["passed", "failed"])
      .execute(),
    db
      .selectFrom("hrw_assessments as a")
      .innerJoin("courses", "courses.id", "a.course_id")
      .innerJoin("users as assessor", "assessor.id", "a.assessor_id")
      .select(["a.id", "a.licence_class", "courses.name as course", "assessor.full_name as assessor"])
      .where("a.candidate_id", "=", studentId)
      .execute(),
    db
      .selectFrom("hrw_assessment_parts as p")
      .innerJoin("hrw_assessments as a", "a.id", "p.assessment_id")
      .select(["p.assessment_id", "p.part", "p.result", "p.assessed_on", "p.recorded_at"])
      .where("a.candidate_id", "=", studentId)
      .orderBy("p.assessed_on")
      .orderBy("p.recorded_at")
      .execute(),
    appealsOnAssessments(db, studentId),
  ]);
  const latestParts = new Map<string, Map<string, { result: string; on: string }>>();
  for (const p of parts) {
    const byPart = latestParts.get(p.assessment_id) ?? new Map<string, { result: string; on: string }>();
    byPart.set(p.part, { result: p.result, on: p.assessed_on });
    latestParts.set(p.assessment_id, byPart);
  }
  const out: DecidedAssessment[] = units.map((u) => ({
    kind: "unit",
    id: u.id,
    title: u.assessment_type,
    course: u.course,
    result: u.status,
    decided_on: u.assessment_date.slice(0, 10),
    assessor: u.assessor ?? null,
    appeal: appeals.get(`unit:${u.id}`) ?? null,
  }));
  for (const h of hrw) {
    const byPart = latestParts.get(h.id);
    if (!byPart) continue;
    out.push({
      kind: "hrw",
      id: h.id,
      title: `${h.licence_class} licence assessment`,
      course: h.course,
      result: [...byPart].map(([part, r]) => `${part}: ${r.result.replace(/_/g, " ")}`).join(", "),
      decided_on: [...byPart.values()]
        .map((r) => r.on)
        .sort()
        .at(-1)!,
      assessor: h.assessor,
      appeal: appeals.get(`hrw:${h.id}`) ?? null,
    });
  }
  return out.sort((a, b) => b.decided_on.localeCompare(a.decided_on));
}

/** How many complaints and appeals are past a clock today: the admin dashboard's Standards panel. */
export async function overdueComplaintCount(db: DB, today: string): Promise<number> {
  const row = await db
    .selectFrom("complaints as c")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(overdueSql(today))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
