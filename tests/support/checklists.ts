import type { DB } from "#db/connection";
import { findEvidenceAssessment } from "~/models/evidence.server";
import { listChecklists, markChecklist, reviewChecklist, saveChecklist } from "~/models/standards/checklist.server";

/** A course's reviewed observation checklist (the first already reviewed, or a new one of two items, reviewed): its id. */
export async function reviewedChecklist(db: DB, courseId: string, adminId: string): Promise<string> {
  const existing = (await listChecklists(db, courseId)).find((c) => c.reviewed_at);
  if (existing) return existing.id;
  const id = await saveChecklist(
    db,
    {
      course_id: courseId,
      title: "Observation checklist",
      items: [
        { text: "Identifies the hazards of the work", maps_to: "Element 1" },
        { text: "Applies the controls while working", maps_to: "Element 2" },
      ],
    },
    adminId,
  );
  await reviewChecklist(db, id, adminId);
  return id;
}

/** The RPL assessor marks every item of the unit's reviewed checklist on the application, as the evidence page's checklist form does: what a grant needs. */
export async function markRecognitionChecklist(
  db: DB,
  input: { applicationId: string; courseId: string; assessorId: string; adminId: string },
): Promise<string> {
  const checklistId = await reviewedChecklist(db, input.courseId, input.adminId);
  const checklist = (await listChecklists(db, input.courseId)).find((c) => c.id === checklistId)!;
  const assessment = (await findEvidenceAssessment(db, { kind: "recognition", id: input.applicationId }))!;
  await markChecklist(
    db,
    { assessment, checklist_id: checklistId, marks: checklist.items.map((item) => ({ item_id: item.id, result: "satisfactory", comment: null })) },
    input.assessorId,
  );
  return checklistId;
}
