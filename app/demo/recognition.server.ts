import type { WriteTransaction } from "#db/connection";
import { organisation } from "~/env.server";
import { issueCertificate } from "~/models/certificates/certificate-issue.server";
import { acknowledgeComplaint, assignDecider } from "~/models/complaints/complaint-steps.server";
import { lodgeAppeal } from "~/models/complaints/complaint-lodging.server";
import { createCourse } from "~/models/course-admin.server";
import { createEnrollment, setPlannedDates } from "~/models/enrollment.server";
import { defaultPlannedDates } from "~/rules/enrollment-rules";
import { applyForRecognition, assignRecognitionAssessor, authenticateCreditTransfer, decideRecognition } from "~/models/recognition/recognition.server";
import { findEvidenceAssessment } from "~/models/evidence.server";
import { markChecklist, reviewChecklist, saveChecklist } from "~/models/standards/checklist.server";
import { recordTrainerUnit } from "~/models/standards/trainer-credential.server";
import { setCourseValidation } from "~/models/standards/validation.server";
import { courseCreateSchema } from "~/schemas/course";
import { addMonths, organisationDate, organisationToday } from "~/utils/organisation-calendar";
import { DEMO_RECOGNITION_COURSE } from "./data";

const DAY = 86_400_000;

/** The cohort learners whose recognition the demo shows (never the demo student: their pages' figures are theirs). */
export const DEMO_RECOGNITION_LEARNERS = {
  creditTransfer: "mia.nguyen@example.com",
  rplGranted: "jack.williams@example.com",
  rplNotGranted: "ethan.papadopoulos@example.com",
} as const;

/** The WHS unit's observation checklist, an item per element of the unit, which an RPL assessor marks before granting. */
const WHS_CHECKLIST = {
  title: "CPCCWHS2001 RPL observation checklist",
  items: [
    { text: "Identifies the WHS requirements, policies and procedures that apply to the work", maps_to: "Element 1" },
    { text: "Identifies hazardous materials and other hazards on the site, and reports them", maps_to: "Element 2" },
    { text: "Plans and prepares for safe work: the SWMS, the controls and the personal protective equipment", maps_to: "Element 3" },
    { text: "Applies the requirements, policies and procedures while working", maps_to: "Element 4" },
    { text: "Follows the procedures for incidents and emergencies", maps_to: "Element 5" },
  ],
};

/**
 * The demo's recognition, through the model functions (docs/decisions/037-recognition.md):
 *
 * - licensing rules win: a learner's RPL for their licence unit is refused with the reason;
 * - on the WHS unit without a licence class (DEMO_RECOGNITION_COURSE, which Sam Whitfield and
 *   Priya Shah are credentialed for), a credit transfer granted (60) on another RTO's statement
 *   of attainment, authenticated by the office; an RPL granted (51) by Sam once he has marked
 *   every item of the unit's reviewed observation checklist, its statement of attainment issued
 *   as for any unit the RTO assesses; and an RPL not granted (52) with
 *   reasons, under appeal (acknowledged, assigned to Priya to decide, as Sam made the decision).
 *
 * The three enrolled well before the four newest enrolments, which the demo's invoices bill
 * (invoices.server.ts), so those stay as they were.
 */
export async function seedDemoRecognition(
  trx: WriteTransaction,
  input: { now: Date; demoStudentId: string; adminId: string; trainerId: string; priyaId: string },
): Promise<void> {
  const { now, adminId, trainerId, priyaId } = input;
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
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
  if (licence) {
    await applyForRecognition(
      trx,
      { id: licence.student_id, role: "student" },
      { enrollment_id: licence.id, kind: "rpl", statement: "I have operated this plant for years without a ticket." },
      licence.student_id,
      at(5),
    );
  }

  // the unit, added by the office, its assessors credentialed for it and its validation set like the others'
  const admin = { id: adminId, role: "admin" as const };
  const course = await createCourse(trx, courseCreateSchema.parse({ ...DEMO_RECOGNITION_COURSE }), adminId, at(120));
  for (const trainer of [trainerId, priyaId]) {
    await recordTrainerUnit(
      trx,
      trainer,
      { unit_code: DEMO_RECOGNITION_COURSE.unit_code, basis: "held", evidence: null, expires_on: null },
      { id: adminId },
      at(119),
    );
  }
  await setCourseValidation(
    trx,
    { course_id: course.id, risk_rating: "medium", last_validated_on: addMonths(organisationToday(now), -3), next_due_on: null },
    { id: adminId },
    at(30),
  );
  const checklistId = await saveChecklist(trx, { course_id: course.id, ...WHS_CHECKLIST }, { id: adminId }, at(118));
  await reviewChecklist(trx, checklistId, { id: adminId }, at(117));

  const learner = async (email: string) => (await trx.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  const enrol = async (studentId: string, daysAgo: number) => {
    const made = await createEnrollment(trx, { studentId, courseId: course.id, billing: "none", now: at(daysAgo), confirm: false });
    const start = organisationDate(at(daysAgo - 7).toISOString());
    await setPlannedDates(trx, {
      enrollmentId: made.id,
      start,
      end: defaultPlannedDates(start, DEMO_RECOGNITION_COURSE.duration_hours).end,
      actorId: adminId,
      now: at(daysAgo),
    });
    return made.id;
  };
  const apply = async (studentId: string, enrollmentId: string, kind: "credit_transfer" | "rpl", statement: string, daysAgo: number) =>
    applyForRecognition(trx, { id: studentId, role: "student" }, { enrollment_id: enrollmentId, kind, statement }, studentId, at(daysAgo));
  const sam = { id: trainerId, role: "trainer" as const };

  // a credit transfer: the other RTO's statement of attainment, authenticated, then granted (60)
  const mia = await learner(DEMO_RECOGNITION_LEARNERS.creditTransfer);
  const ct = await apply(
    mia,
    await enrol(mia, 70),
    "credit_transfer",
    "Statement of attainment for CPCCWHS2001 from RTO 90001, issued March 2024, with my general construction induction card.",
    66,
  );
  await authenticateCreditTransfer(
    trx,
    admin,
    ct.id,
    {
      issuing_rto_code: "90001",
      document_number: "SOA-2024-04417",
      checked_how: "Confirmed with the issuing RTO's records officer by phone; the RTO's scope lists the unit",
      checked_on: organisationDate(at(64).toISOString()),
      equivalence: "same",
      held_unit_code: null,
      mapping: null,
    },
    adminId,
    at(64),
  );
  await decideRecognition(
    trx,
    admin,
    ct.id,
    { decision: "granted", reasons: "The same unit, on an authenticated statement of attainment from the issuing RTO." },
    adminId,
    at(63),
  );

  // an RPL granted (51) by Sam, credentialed for the unit; the RTO's own assessment, so certified as usual
  const jack = await learner(DEMO_RECOGNITION_LEARNERS.rplGranted);
  const yesEnrollment = await enrol(jack, 68);
  const yes = await apply(
    jack,
    yesEnrollment,
    "rpl",
    "Six years as a leading hand on civil sites: I write the SWMS for my crew and run the toolbox talks.",
    62,
  );
  await assignRecognitionAssessor(trx, admin, yes.id, { assessor_id: trainerId }, adminId, at(61));
  const checklistItems = (await trx.selectFrom("checklist_items").select("id").where("checklist_id", "=", checklistId).where("position", ">", 0).execute()).map(
    (item) => ({ item_id: item.id, result: "satisfactory" as const, comment: null }),
  );
  await markChecklist(
    trx,
    { assessment: (await findEvidenceAssessment(trx, { kind: "recognition", id: yes.id }))!, checklist_id: checklistId, marks: checklistItems },
    { id: trainerId },
    at(49),
  );
  await decideRecognition(
    trx,
    sam,
    yes.id,
    {
      decision: "granted",
      reasons:
        "The SWMS, hazard reports and the site manager's third-party report show every performance criterion; the competency conversation covered the knowledge evidence.",
    },
    trainerId,
    at(48),
  );
  await issueCertificate(trx, { enrollmentId: yesEnrollment, actorId: adminId, now: at(47) });

  // an RPL not granted (52) with reasons, which the learner has appealed: Priya decides the appeal
  const ethan = await learner(DEMO_RECOGNITION_LEARNERS.rplNotGranted);
  const no = await apply(ethan, await enrol(ethan, 65), "rpl", "Three years labouring for a builder; I did the site inductions and toolbox talks.", 58);
  await assignRecognitionAssessor(trx, admin, no.id, { assessor_id: trainerId }, adminId, at(57));
  await decideRecognition(
    trx,
    sam,
    no.id,
    {
      decision: "not_granted",
      reasons:
        "The evidence shows inductions attended but not hazards identified and reported or a SWMS followed; the third-party report does not cover the emergency procedures.",
    },
    trainerId,
    at(40),
  );
  const appeal = await lodgeAppeal(
    trx,
    {
      assessment_kind: "recognition",
      assessment_id: no.id,
      details: "My supervisor can confirm the hazard reports I wrote and the evacuation drill I ran; I can bring the site diary.",
    },
    { by: ethan, rto: organisation(), now: at(6) },
  );
  await acknowledgeComplaint(trx, appeal.id, adminId, admin, at(5));
  await assignDecider(trx, appeal.id, priyaId, adminId, at(5));
}
