import crypto from "node:crypto";
import type { Selectable } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import type { ChecklistItemsTable, ChecklistMarksTable } from "#db/schema-evidence";
import { invalid, notFound } from "~/utils/errors";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import type { EvidenceAssessment } from "../evidence.server";
import type { ChecklistResult } from "~/schemas/evidence";

/**
 * Observation checklists: per course, set by admins. Each item names the unit element or
 * performance criterion it maps to (and for a licence course the NAI part). A checklist must be
 * reviewed before it is used; changing its items clears the review. The assessor marks each item
 * satisfactory or not yet, with a comment, on one assessment.
 */

export const CHECKLIST_MESSAGES = {
  notReviewed: "This checklist has not been reviewed before use; an admin must review it first.",
  unmarked: "Mark every item satisfactory or not yet.",
  noItems: "Add at least one item.",
} as const;

export type ChecklistItem = Pick<Selectable<ChecklistItemsTable>, "id" | "position" | "text" | "maps_to" | "nai_part">;

export interface Checklist {
  id: string;
  course: { id: string; name: string; unit_code: string };
  title: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
  items: ChecklistItem[];
}

async function itemsOf(db: DB, ids: string[]): Promise<Map<string, ChecklistItem[]>> {
  const rows = ids.length
    ? await db
        .selectFrom("checklist_items")
        .select(["id", "checklist_id", "position", "text", "maps_to", "nai_part"])
        .where("checklist_id", "in", ids)
        .where("position", ">", 0)
        .orderBy("position")
        .execute()
    : [];
  const out = new Map<string, ChecklistItem[]>();
  for (const { checklist_id, ...item } of rows) out.set(checklist_id, [...(out.get(checklist_id) ?? []), { ...item, position: Number(item.position) }]);
  return out;
}

/** Every checklist (admins), by course. */
export function listChecklists(db: DB, courseId?: string): Promise<Checklist[]> {
  return selectChecklists(db, { courseId });
}

/** The courses a checklist may be written for, by name: every course, a retired one's too. */
export function checklistCourses(db: DB): Promise<{ id: string; name: string; unit_code: string }[]> {
  return db.selectFrom("courses").select(["id", "name", "unit_code"]).orderBy("name").orderBy("id").execute();
}

/** One checklist with its items, or null. */
export async function getChecklist(db: DB, id: string): Promise<Checklist | null> {
  return (await selectChecklists(db, { id }))[0] ?? null;
}

async function selectChecklists(db: DB, filter: { courseId?: string; id?: string }): Promise<Checklist[]> {
  let query = db
    .selectFrom("observation_checklists as c")
    .innerJoin("courses", "courses.id", "c.course_id")
    .select(["c.id", "c.title", "c.reviewed_at", "c.reviewed_by", "courses.id as course_id", "courses.name as course_name", "courses.unit_code"])
    .orderBy("courses.name")
    .orderBy("c.created_at");
  if (filter.courseId) query = query.where("c.course_id", "=", filter.courseId);
  if (filter.id) query = query.where("c.id", "=", filter.id);
  const rows = await query.execute();
  const items = await itemsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    reviewed_at: r.reviewed_at,
    reviewed_by: r.reviewed_by,
    course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code },
    items: items.get(r.id) ?? [],
  }));
}

/** Creates a checklist, or replaces an existing one's title and items (which clears its review). */
export async function saveChecklist(
  db: DB,
  input: { id?: string; course_id: string; title: string; items: { text: string; maps_to: string; nai_part?: string | null }[] },
  actorRef: SignedInActorRef,
  at = new Date(),
): Promise<string> {
  const actor = signedInActor(actorRef);
  if (input.items.length === 0) throw invalid(CHECKLIST_MESSAGES.noItems, { items: CHECKLIST_MESSAGES.noItems });
  const now = at.toISOString();
  const id = input.id ?? crypto.randomUUID();
  await writeTransaction(db, async (trx) => {
    const course = await trx.selectFrom("courses").select("id").where("id", "=", input.course_id).executeTakeFirst();
    if (!course) throw notFound("Course");
    if (input.id) {
      const existing = await trx.selectFrom("observation_checklists").select("id").where("id", "=", input.id).executeTakeFirst();
      if (!existing) throw notFound("Checklist");
      await trx
        .updateTable("observation_checklists")
        .set({ title: input.title, course_id: input.course_id, reviewed_at: null, reviewed_by: null, updated_at: now })
        .where("id", "=", id)
        .execute();
      // the old items are retired (position 0 or below): those already marked on an assessment
      // stay for that record, the others go
      await trx
        .updateTable("checklist_items")
        .set((eb) => ({ position: eb(eb.val(0), "-", eb.ref("position")) }))
        .where("checklist_id", "=", id)
        .where("position", ">", 0)
        .execute();
      await trx
        .deleteFrom("checklist_items")
        .where("checklist_id", "=", id)
        .where("position", "<=", 0)
        .where("id", "not in", trx.selectFrom("checklist_marks").select("item_id"))
        .execute();
    } else {
      await trx
        .insertInto("observation_checklists")
        .values({ id, course_id: input.course_id, title: input.title, created_by: actor.id, created_at: now, updated_at: now })
        .execute();
    }
    await trx
      .insertInto("checklist_items")
      .values(
        input.items.map((item, i) => ({
          id: crypto.randomUUID(),
          checklist_id: id,
          position: i + 1,
          text: item.text,
          maps_to: item.maps_to,
          nai_part: item.nai_part || null,
        })),
      )
      .execute();
    await recordAudit(trx, { action: "checklist.saved", actor, subject: { type: "checklist", id }, detail: `${input.items.length} items`, now });
  });
  return id;
}

/** Marks a checklist reviewed before use. */
export async function reviewChecklist(db: DB, id: string, actorRef: SignedInActorRef, at = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  const now = at.toISOString();
  await writeTransaction(db, async (trx) => {
    const result = await trx.updateTable("observation_checklists").set({ reviewed_at: now, reviewed_by: actor.id }).where("id", "=", id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound("Checklist");
    await recordAudit(trx, { action: "checklist.reviewed", actor, subject: { type: "checklist", id }, now });
  });
}

export type ChecklistMark = Pick<Selectable<ChecklistMarksTable>, "item_id" | "result" | "comment" | "marked_at">;

/** The course's checklists with this assessment's marks (reviewed or not: the page says which may be used). */
export async function checklistsForAssessment(db: DB, a: EvidenceAssessment): Promise<{ checklist: Checklist; marks: ChecklistMark[] }[]> {
  const checklists = await listChecklists(db, a.course.id);
  const marks = await db
    .selectFrom("checklist_marks")
    .select(["item_id", "result", "comment", "marked_at"])
    .where("assessment_kind", "=", a.kind)
    .where("assessment_id", "=", a.id)
    .execute();
  return checklists.map((checklist) => ({ checklist, marks: marks.filter((m) => checklist.items.some((i) => i.id === m.item_id)) }));
}

/**
 * Whether one of the course's reviewed checklists has every item marked on this assessment by
 * `markedBy`: the assessor's judgement recorded item by item, which an RPL grant needs. Marks an
 * earlier assessor made (before an upheld appeal moved the application on) do not count.
 */
export async function checklistMarkedBy(
  db: DB,
  input: { assessment: Pick<EvidenceAssessment, "kind" | "id">; courseId: string; markedBy: string },
): Promise<{ reviewed: boolean; marked: boolean }> {
  const reviewed = (await listChecklists(db, input.courseId)).filter((c) => c.reviewed_at && c.items.length > 0);
  if (reviewed.length === 0) return { reviewed: false, marked: false };
  const marked = new Set(
    (
      await db
        .selectFrom("checklist_marks")
        .select("item_id")
        .where("assessment_kind", "=", input.assessment.kind)
        .where("assessment_id", "=", input.assessment.id)
        .where("marked_by", "=", input.markedBy)
        .execute()
    ).map((m) => m.item_id),
  );
  return { reviewed: true, marked: reviewed.some((c) => c.items.every((item) => marked.has(item.id))) };
}

/**
 * The assessor marks every item of a reviewed checklist on one assessment (again: a later
 * marking replaces the earlier one, item by item).
 */
export async function markChecklist(
  db: DB,
  input: { assessment: EvidenceAssessment; checklist_id: string; marks: { item_id: string; result: ChecklistResult | null; comment: string | null }[] },
  actorRef: SignedInActorRef,
  now = new Date(),
): Promise<void> {
  const actor = signedInActor(actorRef);
  const { assessment } = input;
  if (assessment.assessor?.id !== actor.id) throw notFound("Assessment");
  const [checklist] = (await listChecklists(db, assessment.course.id)).filter((c) => c.id === input.checklist_id);
  if (!checklist) throw notFound("Checklist");
  if (!checklist.reviewed_at) throw invalid(CHECKLIST_MESSAGES.notReviewed);
  const byItem = new Map(input.marks.map((m) => [m.item_id, m]));
  const errors: Record<string, string> = {};
  for (const item of checklist.items) if (!byItem.get(item.id)?.result) errors[`result_${item.id}`] = CHECKLIST_MESSAGES.unmarked;
  if (Object.keys(errors).length) throw invalid(CHECKLIST_MESSAGES.unmarked, errors);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    for (const item of checklist.items) {
      const m = byItem.get(item.id)!;
      await trx
        .insertInto("checklist_marks")
        .values({
          id: crypto.randomUUID(),
          assessment_kind: assessment.kind,
          assessment_id: assessment.id,
          item_id: item.id,
          result: m.result!,
          comment: m.comment || null,
          marked_by: actor.id,
          marked_at: at,
        })
        .onConflict((oc) =>
          oc
            .columns(["assessment_kind", "assessment_id", "item_id"])
            .doUpdateSet({ result: m.result!, comment: m.comment || null, marked_by: actor.id, marked_at: at }),
        )
        .execute();
    }
    await recordAudit(trx, {
      action: "checklist.marked",
      actor,
      subject: { type: `${assessment.kind}_assessment`, id: assessment.id, userId: assessment.student.id },
      detail: checklist.id,
      now: at,
    });
  });
}
