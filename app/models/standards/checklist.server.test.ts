import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeCourse, makeEnrollment, makeUser } from "../../../tests/support/factories";
import { createTestDb, type TestDb } from "../../../tests/support/test-db";
import { checklistsForAssessment, markChecklist, reviewChecklist, saveChecklist } from "./checklist.server";
import { assessmentFor } from "../evidence.server";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => t.cleanup());

describe("observation checklists", () => {
  it("are used only once reviewed; the assessor marks every item, with comments", async () => {
    const admin = await makeUser(t.db, { role: "admin" });
    const trainer = await makeUser(t.db, { role: "trainer" });
    const student = await makeUser(t.db, { role: "student" });
    const course = await makeCourse(t.db);
    const enrollment = await makeEnrollment(t.db, student.id, course.id);
    const id = crypto.randomUUID();
    await t.db
      .insertInto("assessments")
      .values({
        id,
        enrollment_id: enrollment.id,
        student_id: student.id,
        course_id: course.id,
        assessment_type: "Practical",
        status: "in_progress",
        score: null,
        max_score: null,
        assessment_date: "2026-11-20T00:00:00.000Z",
        feedback: null,
        assessed_by: trainer.id,
        created_at: new Date().toISOString(),
      })
      .execute();
    const checklistId = await saveChecklist(
      t.db,
      {
        course_id: course.id,
        title: "Slewing a load",
        items: [
          { text: "Checks the load chart for the radius", maps_to: "PC 2.3" },
          { text: "Keeps the load clear of people", maps_to: "PC 3.1", nai_part: "practical" },
        ],
      },
      admin.id,
    );
    const assessment = await assessmentFor(t.db, { id: trainer.id, role: "trainer" }, { kind: "unit", id });
    const [first, second] = (await checklistsForAssessment(t.db, assessment))[0]!.checklist.items;
    const all = [
      { item_id: first!.id, result: "satisfactory" as const, comment: "Read it aloud" },
      { item_id: second!.id, result: "not_yet" as const, comment: "Walked under the load" },
    ];
    await expect(markChecklist(t.db, { assessment, checklist_id: checklistId, marks: all }, trainer.id)).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining("reviewed before use"),
    });
    await reviewChecklist(t.db, checklistId, admin.id);
    await expect(markChecklist(t.db, { assessment, checklist_id: checklistId, marks: [all[0]!] }, trainer.id)).rejects.toMatchObject({
      status: 422,
      fieldErrors: { [`result_${second!.id}`]: expect.any(String) },
    });
    const other = await makeUser(t.db, { role: "trainer" });
    await expect(markChecklist(t.db, { assessment, checklist_id: checklistId, marks: all }, other.id)).rejects.toMatchObject({ status: 404 });
    await markChecklist(t.db, { assessment, checklist_id: checklistId, marks: all }, trainer.id);
    const { marks } = (await checklistsForAssessment(t.db, assessment))[0]!;
    expect(marks.map((m) => [m.result, m.comment]).sort()).toEqual([
      ["not_yet", "Walked under the load"],
      ["satisfactory", "Read it aloud"],
    ]);
    // editing the items clears the review; marked items stay with the record
    await saveChecklist(t.db, { id: checklistId, course_id: course.id, title: "Slewing a load", items: [{ text: "New item", maps_to: "PC 1.1" }] }, admin.id);
    const [after] = await checklistsForAssessment(t.db, assessment);
    expect(after!.checklist.reviewed_at).toBeNull();
    expect(after!.checklist.items.map((i) => i.text)).toEqual(["New item"]);
    expect(await t.db.selectFrom("checklist_marks").select("id").where("assessment_id", "=", id).execute()).toHaveLength(2);
  });
});
