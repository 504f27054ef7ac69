import type { WriteTransaction } from "#db/connection";
import { organisation } from "~/env.server";
import { acknowledgeComplaint, assignDecider, resolveComplaint } from "~/models/complaints/complaint-steps.server";
import { lodgeAppeal, lodgeComplaint } from "~/models/complaints/complaint-lodging.server";
import { createEnrollment } from "~/models/enrollment.server";
import { takeReview } from "~/models/review.server";
import { addDays, organisationToday } from "~/utils/organisation-calendar";

const DAY = 86_400_000;
/** The demo learner who took the pre-enrolment review (a recent sign-up). */
export const REVIEW_LEARNER = "isla.fraser@example.com";

/**
 * The demo's side of the Standards for RTOs a learner sees, through the model functions:
 * complaints in each state (one anonymous and overdue, one acknowledged, one resolved with an
 * improvement in mind), appeals of the trainer's decisions (one open with a decider, one
 * decided), and a newer learner's pre-enrolment review for a licence course ("suitable with
 * support" in numeracy) with the enrolment it confirmed. The demo student's own records are left
 * as they are (the student pages' figures are theirs).
 */
export async function seedDemoComplaints(
  trx: WriteTransaction,
  input: { now: Date; adminId: string; trainerId: string; demoStudentId: string },
): Promise<void> {
  const { now, adminId, trainerId, demoStudentId } = input;
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
  const rto = organisation();
  const admin = { id: adminId, role: "admin" as const };

  // left unacknowledged for three weeks: past its acknowledge-by day, so the register shows it overdue first
  await lodgeComplaint(
    trx,
    { details: "I rang three times about my certificate and nobody called back.", name: null, email: null, phone: null },
    { by: null, rto, now: at(21) },
  );
  const acknowledged = await lodgeComplaint(
    trx,
    { details: "The practical started an hour late and we were not told why.", name: "Chris Nguyen", email: "chris.nguyen@example.com", phone: null },
    { by: null, rto, now: at(4) },
  );
  await acknowledgeComplaint(trx, acknowledged.id, adminId, admin, at(3));
  const resolved = await lodgeComplaint(
    trx,
    { details: "The training yard's toilets were locked on the Saturday course.", name: "Morgan Lee", email: "morgan.lee@example.com", phone: "0400 555 010" },
    { by: null, rto, now: at(50) },
  );
  await resolveComplaint(
    trx,
    resolved.id,
    {
      outcome: "upheld",
      reasons: "The yard's weekend opening list missed the amenities block; it is on the list now and the caretaker checks it before each Saturday course.",
    },
    adminId,
    admin,
    at(45),
  );

  // appeals of the trainer's failed results: one waiting for the administrator to decide, one decided
  const failed = await trx
    .selectFrom("assessments")
    .select(["id", "student_id"])
    .where("status", "=", "failed")
    .where("assessed_by", "=", trainerId)
    .where("student_id", "<>", demoStudentId)
    .orderBy("assessment_date", "desc")
    .orderBy("id")
    .limit(2)
    .execute();
  const [open, decided] = failed;
  if (open) {
    const appeal = await lodgeAppeal(
      trx,
      { assessment_kind: "unit", assessment_id: open.id, details: "I completed every step of the lift plan; I think the observer missed my tag line check." },
      { by: open.student_id, rto, now: at(2) },
    );
    await assignDecider(trx, appeal.id, adminId, adminId, at(1));
  }
  if (decided) {
    const appeal = await lodgeAppeal(
      trx,
      { assessment_kind: "unit", assessment_id: decided.id, details: "The written paper asked about a chart we never covered." },
      { by: decided.student_id, rto, now: at(30) },
    );
    await resolveComplaint(
      trx,
      appeal.id,
      { outcome: "dismissed", reasons: "The chart is in the learner guide, chapter 4, and was covered on day one; the result stands. A resit is open to you." },
      adminId,
      admin,
      at(26),
    );
  }

  // a learner's review for a licence course they are not in: one numeracy answer wrong (2 of 3), so "suitable with support"
  const learner = await trx.selectFrom("users").select("id").where("email", "=", REVIEW_LEARNER).executeTakeFirstOrThrow();
  const course = await trx
    .selectFrom("courses")
    .select("id")
    .where("review_required", "=", 1)
    .where("is_active", "=", 1)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom("enrollments").select("id").whereRef("enrollments.course_id", "=", "courses.id").where("enrollments.student_id", "=", learner.id),
        ),
      ),
    )
    .orderBy("name")
    .executeTakeFirst();
  if (!course) return;
  const questions = await trx
    .selectFrom("review_questions")
    .select(["id", "group_key", "kind", "answer"])
    .where("is_active", "=", 1)
    .orderBy("position")
    .execute();
  const slip = questions.find((q) => q.group_key === "numeracy" && q.kind === "numeric");
  const answers = Object.fromEntries(questions.map((q) => [q.id, q === slip ? String(Number(q.answer) * 10 + 1) : q.answer]));
  await takeReview(trx, { courseId: course.id, taker: { userId: learner.id, claimToken: null }, answers, now: at(3) });
  const today = organisationToday(now);
  const cls = await trx
    .selectFrom("classes")
    .select("id")
    .where("course_id", "=", course.id)
    .where("cancelled_at", "is", null)
    .where("start_date", ">", addDays(today, 1))
    .orderBy("start_date")
    .executeTakeFirst();
  // billing "none": the demo's invoices are made afterwards, one per enrolment (invoices.server.ts)
  await createEnrollment(trx, {
    studentId: learner.id,
    courseId: course.id,
    classId: cls?.id ?? null,
    actorId: learner.id,
    now: at(3),
    billing: "none",
    confirm: false,
  });
}
