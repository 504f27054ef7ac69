import type { DB } from "#db/connection";
import { addActivity, addTrainingCredential, confirmActivity, recordTrainerUnit } from "~/models/standards/trainer-credential.server";
import { createImprovementAction } from "~/models/standards/improvement.server";
import { completeValidation, createValidationPlan, drawSample, recordFinding, setCourseValidation } from "~/models/standards/validation.server";
import { addDays, addMonths, organisationToday } from "~/utils/organisation-calendar";
import { DEMO_COURSES } from "./data";
import { HRW_DEMO_ASSESSOR } from "./hrw.server";

/** The unit the demo's second assessor (Priya Shah) does not hold: she teaches no class of it. */
export const DEMO_MISSING_UNIT = DEMO_COURSES.find((c) => c.key === "tower-crane")!.unit_code;

/**
 * The assessors' training credentials and units, recorded 400 days ago, before the seed records
 * any class, result or HRW part: each of those is refused (assertCredentialed) to a trainer who
 * does not hold the unit on its day.
 */
export async function seedDemoCredentials(trx: DB, input: { now: Date; adminId: string; trainerId: string; priyaId: string }): Promise<void> {
  const { now, trainerId, priyaId: priya } = input;
  const today = organisationToday(now);
  const admin = { id: input.adminId };
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 864e5);
  await addTrainingCredential(
    trx,
    trainerId,
    { credential: "TAE40122", supervisor_id: null, issued_on: "2023-03-14", expires_on: null, note: "Certificate sighted and copied" },
    admin,
    at(400),
  );
  await addTrainingCredential(
    trx,
    priya,
    { credential: "TAE40116_UPGRADE", supervisor_id: null, issued_on: "2018-06-01", expires_on: null, note: "TAELLN411 and TAEASS502 added in 2020" },
    admin,
    at(400),
  );
  for (const c of DEMO_COURSES) {
    await recordTrainerUnit(trx, trainerId, { unit_code: c.unit_code, basis: "held", evidence: null, expires_on: null }, admin, at(399));
    if (c.unit_code === DEMO_MISSING_UNIT) continue;
    const equivalent = c.key === "rigging-advanced";
    await recordTrainerUnit(
      trx,
      priya,
      {
        unit_code: c.unit_code,
        basis: equivalent ? "equivalent" : "held",
        evidence: equivalent ? "Twelve years as a licensed advanced rigger (RA); mapped against the unit's performance criteria by the training manager" : null,
        expires_on: equivalent ? addDays(today, 30) : null,
      },
      admin,
      at(399),
    );
  }
}

/**
 * The demo's trainer activities and validations (docs/decisions/030), made through the model
 * functions, after the credentials (seedDemoCredentials): Sam Whitfield holds TAE40122 and every
 * unit he teaches and assesses; Priya Shah holds TAE40116 with the upgrade and every unit but the
 * tower crane's (the matrix's "missing"), one of hers by equivalence expiring soon (its
 * "expiring"); activities confirmed and one waiting. The tower crane course (high risk) is due for validation, dogging (low risk) is past
 * 5 years and overdue with a plan booked, and one course has a completed validation with
 * findings.
 */
export async function seedDemoStandards(trx: DB, input: { now: Date; adminId: string; trainerId: string; courseIds: Map<string, string> }): Promise<void> {
  const { now, adminId, trainerId, courseIds } = input;
  const today = organisationToday(now);
  const admin = { id: adminId };
  const priya = (await trx.selectFrom("users").select("id").where("email", "=", HRW_DEMO_ASSESSOR.email).executeTakeFirstOrThrow()).id;
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 864e5);
  const trainerSelf = { id: trainerId, role: "trainer" as const };
  await addActivity(
    trx,
    trainerId,
    {
      kind: "industry",
      activity_date: addDays(today, -120),
      hours: 16,
      description: "Two days on a tower crane erection at a Parramatta site with the principal contractor's rigging crew",
      evidence: "Site supervisor's letter",
    },
    trainerSelf,
    at(118),
  );
  await addActivity(
    trx,
    trainerId,
    {
      kind: "development",
      activity_date: addDays(today, -60),
      hours: 7.5,
      description: "Assessment validation workshop (principles of assessment and rules of evidence)",
      evidence: "Certificate of attendance",
    },
    trainerSelf,
    at(58),
  );
  const waiting = await addActivity(
    trx,
    trainerId,
    { kind: "industry", activity_date: addDays(today, -10), hours: 4, description: "Manufacturer's briefing on new slewing crane load charts", evidence: null },
    trainerSelf,
    at(9),
  );
  for (const a of await trx.selectFrom("trainer_activities").select("id").where("trainer_id", "=", trainerId).where("id", "!=", waiting.id).execute()) {
    await confirmActivity(trx, a.id, admin, at(5));
  }
  await addActivity(
    trx,
    priya,
    {
      kind: "industry",
      activity_date: addDays(today, -200),
      hours: 24,
      description: "Rigging supervision on a wharf crane refurbishment",
      evidence: "Employer statement of service",
    },
    { id: adminId, role: "admin" },
    at(190),
  );

  // validation: due (high risk, validated 11 months ago), overdue (past 5 years), the rest medium
  const course = (key: string) => courseIds.get(key)!;
  for (const c of DEMO_COURSES.filter((d) => d.is_active)) {
    const setting =
      c.key === "tower-crane"
        ? { risk_rating: "high" as const, last_validated_on: addMonths(today, -11) }
        : c.key === "dogging"
          ? { risk_rating: "low" as const, last_validated_on: addDays(addMonths(today, -60), -21) }
          : { risk_rating: "medium" as const, last_validated_on: addMonths(today, -14) };
    await setCourseValidation(trx, { course_id: course(c.key), ...setting, next_due_on: null }, admin, at(30));
  }
  await createValidationPlan(trx, { course_id: course("dogging"), planned_on: addDays(today, 14), sample_size: 2, validator_ids: [priya] }, admin, at(3));

  // a completed validation: Priya validates a sample of Sam's judgements in the course he assessed most
  const counts = await trx
    .selectFrom("assessments")
    .select((eb) => ["course_id", eb.fn.countAll().as("n")])
    .where("status", "in", ["passed", "failed"])
    .where("assessed_by", "=", trainerId)
    .where(
      "course_id",
      "in",
      DEMO_COURSES.filter((c) => c.is_active && c.unit_code !== DEMO_MISSING_UNIT && c.key !== "dogging").map((c) => course(c.key)),
    )
    .groupBy("course_id")
    .execute();
  const busiest = counts.sort((a, b) => Number(b.n) - Number(a.n))[0];
  if (!busiest) return;
  const done = await createValidationPlan(
    trx,
    { course_id: busiest.course_id, planned_on: addDays(today, -21), sample_size: Math.min(3, Number(busiest.n)), validator_ids: [priya] },
    admin,
    at(35),
  );
  await drawSample(trx, done.id, admin, at(22), 20261129);
  const items = await trx.selectFrom("validation_samples").select(["id", "position"]).where("plan_id", "=", done.id).orderBy("position").execute();
  for (const item of items) {
    const last = item.position === items.length;
    await recordFinding(
      trx,
      done.id,
      {
        sample_id: item.id,
        outcome: last ? "does_not_meet" : "meets",
        finding: last
          ? "The practical observation records the lift but not the pre-start checks the unit requires"
          : "Judgement supported by the observation checklist and the written answers",
        action: last ? "Add the pre-start checks to the practical observation checklist and brief assessors" : null,
      },
      { id: priya },
      at(21),
    );
  }
  await completeValidation(trx, done.id, "Judgements sound; one gap in the practical observation tool", admin, at(20));
  // the finding that does not meet goes to the improvement register, linked to its validation
  await createImprovementAction(
    trx,
    {
      source_type: "validation",
      source_id: done.id,
      description: "Add the pre-start checks to the practical observation checklist and brief every assessor on them.",
      owner_id: trainerId,
      due_date: addDays(today, 10),
    },
    admin,
    at(19),
  );
}
