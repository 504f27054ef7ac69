import { sql, type SqlBool } from "kysely";
import { type DB } from "#db/connection";
import type { ComplaintKind, ComplaintOutcome, ComplaintStatus } from "#db/schema-complaints";
import type { AssessmentKind } from "#db/schema-evidence";
import type { Role } from "#db/schema";
import { recognitionTitle } from "~/schemas/recognition";
import type { ComplaintListQuery } from "~/schemas/complaint";
import { KIND_LABELS, OUTCOME_LABELS, OVERDUE_LABELS, STATUS_LABELS, describeChange } from "~/schemas/complaint-text";
import { notFound } from "~/utils/errors";
import { organisationDate, organisationToday } from "~/utils/organisation-calendar";
import { afterKey, keysetRows } from "../batches.server";
import { complaintFieldsFor, type ComplaintReader } from "../personal-data.server";
import { overdueClock, overdueSql } from "./complaint-clocks.server";

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
 *
 * This module is the register (what each reader may read, its CSV, a learner's decided
 * assessments); the clocks and settings are complaint-clocks.server.ts, lodging is
 * complaint-lodging.server.ts, and the steps (acknowledge, assign, resolve) complaint-steps.server.ts.
 */

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

/** An item with the names of everyone it mentions: what the register and the steps read. */
export function baseQuery(db: DB) {
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
export function scoped<Q extends ReturnType<typeof baseQuery>>(query: Q, reader: ComplaintReader): Q {
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
