import crypto from "node:crypto";
import { sql } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import type { ImprovementSource, ImprovementStatus } from "#db/schema-improvement";
import type { ImprovementCloseInput, ImprovementCreateInput, ImprovementListQuery, ImprovementUpdateInput } from "~/schemas/improvement";
import { KIND_LABELS } from "~/schemas/complaint-text";
import { uuid } from "~/schemas/fields";
import { IMPROVEMENT_CLOSE_NEEDS_EVIDENCE, IMPROVEMENT_CLOSED_LOCKED } from "~/schemas/improvement-text";
import { DomainError, invalid, notFound } from "~/utils/errors";
import { organisationToday } from "~/utils/organisation-calendar";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { questionSourceLabel } from "./questionnaire.server";

/**
 * The improvement register: what the RTO learnt from complaints, appeals, validation,
 * questionnaires and audits, and what it changed. Each action has an owner (a staff member), a
 * due day on the organisation's calendar and a status; it closes only with what was done and
 * the evidence that shows it, and a closed action stays as it was. Overdue: not closed and past
 * its due day. Every change is audited.
 */

export const IMPROVEMENT_PAGE_SIZE = 50;
export const OWNER_NOT_STAFF = "The owner must be an active trainer or administrator";

export interface ImprovementAction {
  id: string;
  source_type: ImprovementSource;
  source_id: string | null;
  source_label: string | null;
  description: string;
  owner: { id: string; full_name: string };
  due_date: string;
  status: ImprovementStatus;
  overdue: boolean;
  action_taken: string | null;
  closure_evidence: string | null;
  closed_at: string | null;
  closed_by: { id: string; full_name: string } | null;
  created_at: string;
  updated_at: string;
}

function actionsQuery(db: DB) {
  return db
    .selectFrom("improvement_actions as a")
    .innerJoin("users as o", "o.id", "a.owner_id")
    .leftJoin("users as c", "c.id", "a.closed_by")
    .select([
      "a.id",
      "a.source_type",
      "a.source_id",
      "a.source_label",
      "a.description",
      "a.owner_id",
      "o.full_name as owner_name",
      "a.due_date",
      "a.status",
      "a.action_taken",
      "a.closure_evidence",
      "a.closed_at",
      "a.closed_by",
      "c.full_name as closed_by_name",
      "a.created_at",
      "a.updated_at",
    ]);
}

type ActionRow = Awaited<ReturnType<ReturnType<typeof actionsQuery>["executeTakeFirstOrThrow"]>>;

function view(r: ActionRow, today: string): ImprovementAction {
  return {
    id: r.id,
    source_type: r.source_type,
    source_id: r.source_id,
    source_label: r.source_label,
    description: r.description,
    owner: { id: r.owner_id, full_name: r.owner_name },
    due_date: r.due_date,
    status: r.status,
    overdue: isOverdue(r, today),
    action_taken: r.action_taken,
    closure_evidence: r.closure_evidence,
    closed_at: r.closed_at,
    closed_by: r.closed_by ? { id: r.closed_by, full_name: r.closed_by_name ?? "" } : null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The one reading of "overdue": not closed, and its due day has passed on the organisation's calendar. */
export function isOverdue(a: { status: ImprovementStatus; due_date: string }, today: string): boolean {
  return a.status !== "closed" && a.due_date < today;
}

export async function getImprovementAction(db: DB, id: string, today = organisationToday()): Promise<ImprovementAction | null> {
  const row = await actionsQuery(db).where("a.id", "=", id).executeTakeFirst();
  return row ? view(row, today) : null;
}

/** The staff who may own an action: active trainers and administrators, by name. */
export function listActionOwners(db: DB): Promise<{ id: string; full_name: string }[]> {
  return db
    .selectFrom("users")
    .select(["id", "full_name"])
    .where("role", "in", ["trainer", "admin"])
    .where("is_active", "=", 1)
    .where("approval_status", "=", "approved")
    .orderBy("full_name")
    .orderBy("id")
    .execute();
}

async function assertOwner(db: DB, ownerId: string): Promise<void> {
  const owner = await db
    .selectFrom("users")
    .select("id")
    .where("id", "=", ownerId)
    .where("role", "in", ["trainer", "admin"])
    .where("is_active", "=", 1)
    .where("approval_status", "=", "approved")
    .executeTakeFirst();
  if (!owner) throw invalid(OWNER_NOT_STAFF, { owner_id: OWNER_NOT_STAFF });
}

/**
 * The kinds of source that name a record the portal holds, each with the refusal of a reference
 * that names none of that kind: an action linked to no record would send its reader nowhere. An
 * audit and "other" name something outside the portal, so their reference is free text.
 */
export const UNKNOWN_SOURCE = {
  complaint: "No complaint has this reference",
  appeal: "No appeal has this reference",
  validation: "No course validation has this id",
  questionnaire: "No questionnaire question has this id",
} as const satisfies Partial<Record<ImprovementSource, string>>;
type RecordSource = keyof typeof UNKNOWN_SOURCE;
const isRecordSource = (type: ImprovementSource): type is RecordSource => type in UNKNOWN_SOURCE;
export const SOURCE_REFERENCE_NEEDED = "Give the reference of the record this action comes from";

/** An id as the portal makes them; anything else names no row (and PostgreSQL's uuid columns refuse it). */
const looksLikeId = (v: string) => uuid.safeParse(v).success;

/**
 * The record a source names: null when there is none of that kind; for a complaint or an appeal
 * by its id or its reference (C-2026-0007), labelled with the reference; a free-text source is
 * what it says, with no label.
 */
async function findImprovementSource(db: DB, type: ImprovementSource, id: string): Promise<{ label: string | null } | null> {
  if (!isRecordSource(type)) return { label: null };
  if (type === "questionnaire") {
    const label = await questionSourceLabel(db, id);
    return label === null ? null : { label };
  }
  if (type === "validation") {
    if (!looksLikeId(id)) return null;
    const plan = await db.selectFrom("validation_plans").select("id").where("id", "=", id.toLowerCase()).executeTakeFirst();
    return plan ? { label: null } : null;
  }
  const complaint = await db
    .selectFrom("complaints")
    .select(["kind", "reference"])
    .where("kind", "=", type)
    .where((eb) => (looksLikeId(id) ? eb("id", "=", id.toLowerCase()) : eb("reference", "=", id.toUpperCase())))
    .executeTakeFirst();
  return complaint ? { label: `${KIND_LABELS[complaint.kind]} ${complaint.reference}` } : null;
}

/**
 * What the register can say about a source: its type and id as given, and a short description
 * where the portal holds the record here (a questionnaire question, a complaint or an appeal);
 * null when it cannot tell.
 */
export async function describeImprovementSource(db: DB, type: ImprovementSource, id: string | null): Promise<string | null> {
  if (!id) return null;
  return (await findImprovementSource(db, type, id))?.label ?? null;
}

/**
 * Raises an action (an administrator). A source that is a kind of record (a complaint, an
 * appeal, a validation, a questionnaire question) must name one of that kind: refused at
 * source_id, nothing stored, when it names none or is left out.
 */
export async function createImprovementAction(db: DB, input: ImprovementCreateInput, actor: SignedInActorRef, now = new Date()): Promise<ImprovementAction> {
  const at = now.toISOString();
  const id = crypto.randomUUID();
  const who = signedInActor(actor);
  return writeTransaction(db, async (trx) => {
    await assertOwner(trx, input.owner_id);
    if (isRecordSource(input.source_type) && !input.source_id) throw invalid(SOURCE_REFERENCE_NEEDED, { source_id: SOURCE_REFERENCE_NEEDED });
    const source = input.source_id ? await findImprovementSource(trx, input.source_type, input.source_id) : { label: null };
    if (!source) {
      const message = UNKNOWN_SOURCE[input.source_type as RecordSource];
      throw invalid(message, { source_id: message });
    }
    await trx
      .insertInto("improvement_actions")
      .values({
        id,
        source_type: input.source_type,
        source_id: input.source_id,
        source_label: source.label,
        description: input.description,
        owner_id: input.owner_id,
        due_date: input.due_date,
        status: "open",
        created_by: who.id,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await recordAudit(trx, { action: "improvement.raised", actor: who, subject: { type: "improvement_action", id }, detail: input.source_type, now: at });
    return (await getImprovementAction(trx, id, organisationToday(now)))!;
  });
}

async function openAction(trx: DB, id: string) {
  const current = await trx.selectFrom("improvement_actions").selectAll().where("id", "=", id).executeTakeFirst();
  if (!current) throw notFound("Improvement action");
  if (current.status === "closed") throw new DomainError(409, IMPROVEMENT_CLOSED_LOCKED);
  return current;
}

/** An open action's text, owner, due day, status (open or in progress) and progress note. */
export async function updateImprovementAction(
  db: DB,
  id: string,
  input: ImprovementUpdateInput,
  actor: SignedInActorRef,
  now = new Date(),
): Promise<ImprovementAction> {
  const at = now.toISOString();
  const who = signedInActor(actor);
  return writeTransaction(db, async (trx) => {
    const current = await openAction(trx, id);
    if (current.owner_id !== input.owner_id) await assertOwner(trx, input.owner_id);
    const fields = (["description", "owner_id", "due_date", "status", "action_taken"] as const).filter((f) => (current[f] ?? null) !== (input[f] ?? null));
    if (fields.length > 0) {
      await trx
        .updateTable("improvement_actions")
        .set({
          description: input.description,
          owner_id: input.owner_id,
          due_date: input.due_date,
          status: input.status,
          action_taken: input.action_taken,
          updated_at: at,
        })
        .where("id", "=", id)
        .where("status", "!=", "closed")
        .execute();
      await recordAudit(trx, { action: "improvement.updated", actor: who, subject: { type: "improvement_action", id }, fields, now: at });
    }
    return (await getImprovementAction(trx, id, organisationToday(now)))!;
  });
}

/**
 * Closes an action: refused (422, nothing changed) without what was done and its closure
 * evidence, the one rule of closing; a closed action is a 409.
 */
export async function closeImprovementAction(
  db: DB,
  id: string,
  input: ImprovementCloseInput,
  actor: SignedInActorRef,
  now = new Date(),
): Promise<ImprovementAction> {
  const at = now.toISOString();
  const who = signedInActor(actor);
  return writeTransaction(db, async (trx) => {
    const current = await openAction(trx, id);
    const actionTaken = input.action_taken?.trim() || current.action_taken?.trim() || null;
    const evidence = input.closure_evidence?.trim() || null;
    if (!actionTaken || !evidence) {
      const fieldErrors: Record<string, string> = {};
      if (!actionTaken) fieldErrors.action_taken = "Say what was done before closing the action";
      if (!evidence) fieldErrors.closure_evidence = "Give the closure evidence before closing the action";
      throw invalid(IMPROVEMENT_CLOSE_NEEDS_EVIDENCE, fieldErrors);
    }
    const result = await trx
      .updateTable("improvement_actions")
      .set({ status: "closed", action_taken: actionTaken, closure_evidence: evidence, closed_at: at, closed_by: who.id, updated_at: at })
      .where("id", "=", id)
      .where("status", "!=", "closed")
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new DomainError(409, IMPROVEMENT_CLOSED_LOCKED);
    await recordAudit(trx, {
      action: "improvement.closed",
      actor: who,
      subject: { type: "improvement_action", id },
      fields: ["action_taken", "closure_evidence"],
      now: at,
    });
    return (await getImprovementAction(trx, id, organisationToday(now)))!;
  });
}

function filtered(db: DB, q: ImprovementListQuery, today: string) {
  let query = actionsQuery(db);
  if (q.status) query = query.where("a.status", "=", q.status);
  if (q.source_type) query = query.where("a.source_type", "=", q.source_type);
  if (q.owner) query = query.where("a.owner_id", "=", q.owner.toLowerCase());
  if (q.overdue) query = query.where("a.status", "!=", "closed").where("a.due_date", "<", today);
  if (q.from) query = query.where("a.due_date", ">=", q.from);
  if (q.to) query = query.where("a.due_date", "<=", q.to);
  return query;
}

/** Overdue first (oldest due first), then the other open ones by due day, then closed ones, latest closed first. */
function registerOrder<Q extends ReturnType<typeof actionsQuery>>(query: Q, today: string): Q {
  const rank = sql<number>`case when a.status <> 'closed' and a.due_date < ${today} then 0 when a.status <> 'closed' then 1 else 2 end`;
  return query
    .orderBy(rank)
    .orderBy(sql`case when a.status <> 'closed' then a.due_date else '' end`)
    .orderBy("a.closed_at", "desc")
    .orderBy("a.created_at")
    .orderBy("a.id") as Q;
}

/** One page of the register in its order, with the count of every action the filters match. */
export async function listImprovementActions(
  db: DB,
  q: ImprovementListQuery,
  options: { today?: string; pageSize?: number } = {},
): Promise<{ actions: ImprovementAction[]; total: number; page: number; pages: number }> {
  const today = options.today ?? organisationToday();
  const pageSize = options.pageSize ?? IMPROVEMENT_PAGE_SIZE;
  const page = Math.max(1, q.page ?? 1);
  const [rows, count] = await Promise.all([
    registerOrder(filtered(db, q, today), today)
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    filtered(db, q, today)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return { actions: rows.map((r) => view(r, today)), total, page, pages: Math.max(1, Math.ceil(total / pageSize)) };
}

/** Every action the filters match, in the register's order (the CSV). */
export async function allImprovementActions(db: DB, q: ImprovementListQuery, today = organisationToday()): Promise<ImprovementAction[]> {
  const rows = await registerOrder(filtered(db, { ...q, page: undefined }, today), today).execute();
  return rows.map((r) => view(r, today));
}

/** How many actions are overdue (the admin dashboard's Standards panel). */
export async function overdueImprovementCount(db: DB, today = organisationToday()): Promise<number> {
  const row = await db
    .selectFrom("improvement_actions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "!=", "closed")
    .where("due_date", "<", today)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The most overdue actions, oldest due first (the dashboard's short list). */
export async function overdueImprovements(db: DB, options: { limit?: number; today?: string } = {}): Promise<ImprovementAction[]> {
  const today = options.today ?? organisationToday();
  const rows = await registerOrder(actionsQuery(db).where("a.status", "!=", "closed").where("a.due_date", "<", today), today)
    .limit(options.limit ?? 5)
    .execute();
  return rows.map((r) => view(r, today));
}

/** The CSV's columns, in order. */
export const IMPROVEMENT_CSV_COLUMNS = [
  "id",
  "source_type",
  "source_id",
  "source",
  "description",
  "owner",
  "due_date",
  "status",
  "overdue",
  "action_taken",
  "closure_evidence",
  "closed_on",
  "closed_by",
  "raised_on",
] as const;
