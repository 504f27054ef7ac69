import type { WriteTransaction } from "#db/connection";
import { applyForRecognition } from "~/models/recognition.server";

const DAY = 86_400_000;

/**
 * The demo's recognition, through the model. Every demo course leads to a high-risk work
 * licence, and licensing rules win: a learner's RPL application for their licence unit is
 * refused with the reason (the register, the mail and the audit trail show it). A credit
 * transfer or RPL grant needs a unit without a licence class, which the demo does not offer
 * (docs/decisions/037-recognition.md). Never the demo student's enrolment: their pages' figures
 * are theirs.
 */
export async function seedDemoRecognition(trx: WriteTransaction, input: { now: Date; demoStudentId: string }): Promise<void> {
  const licence = await trx
    .selectFrom("enrollments as e")
    .innerJoin("courses as c", "c.id", "e.course_id")
    .innerJoin("users as u", "u.id", "e.student_id")
    .select(["e.id", "e.student_id"])
    .where("e.status", "in", ["enrolled", "in_progress"])
    .where("e.student_id", "<>", input.demoStudentId)
    .where("u.is_active", "=", 1)
    .where("c.licence_class", "is not", null)
    .orderBy("u.email")
    .orderBy("c.unit_code")
    .executeTakeFirst();
  if (!licence) return;
  await applyForRecognition(
    trx,
    { id: licence.student_id, role: "student" },
    { enrollment_id: licence.id, kind: "rpl", statement: "I have operated this plant for years without a ticket." },
    licence.student_id,
    new Date(input.now.getTime() - 5 * DAY),
  );
}
