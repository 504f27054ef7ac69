import crypto from "node:crypto";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { writeTransaction, type DB } from "#db/connection";
import type { CourseValidationInput, ValidationFindingInput, ValidationPlanInput } from "~/schemas/standards";
import {
  DEFAULT_RISK,
  STANDARDS_MESSAGES,
  VALIDATION_CEILING_MONTHS,
  VALIDATION_DUE_DAYS,
  VALIDATION_INTERVAL_MONTHS,
  type FindingOutcome,
  type RiskRating,
  type ValidationState,
} from "~/schemas/standards-text";
import { conflict, DomainError, invalid, notFound } from "~/utils/errors";
import { addDays, addMonths, organisationDate, organisationToday } from "~/utils/organisation-calendar";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { credentialProblem } from "./trainer-credential.server";

/**
 * Validation of each course (its unit): a risk rating sets how long may pass between
 * validations (never more than 5 years); a plan names the date and the validators (each
 * credentialed for the unit); the portal draws the sample of completed assessments from a seed it
 * records, never taking an assessment made by one of the validators, so the team never validates
 * only its own work; findings are recorded per item and the completed validation sets the next
 * due day.
 */

/** A unit's judgements: assessments with a result (passed or failed), not ones still open. */
const COMPLETED_STATUSES = ["passed", "failed"] as const;

/** The latest next validation a rating allows after `last`. */
export function latestNextValidation(risk: RiskRating, last: string): string {
  return addMonths(last, Math.min(VALIDATION_INTERVAL_MONTHS[risk], VALIDATION_CEILING_MONTHS));
}

export function validationState(nextDue: string, today: string): ValidationState {
  if (nextDue < today) return "overdue";
  if (nextDue <= addDays(today, VALIDATION_DUE_DAYS)) return "due";
  return "scheduled";
}

export interface CourseValidation {
  course: { id: string; name: string; unit_code: string };
  risk_rating: RiskRating;
  /** false: never rated; medium risk counted from the day the course was added */
  rated: boolean;
  last_validated_on: string | null;
  next_due_on: string;
  state: ValidationState;
  /** the soonest plan not yet completed */
  open_plan: { id: string; planned_on: string } | null;
}

/** Every active course's validation standing, overdue first, then by next due day. */
export async function listCourseValidations(db: DB, today = organisationToday()): Promise<CourseValidation[]> {
  const [rows, plans] = await Promise.all([
    db
      .selectFrom("courses as c")
      .leftJoin("course_validations as v", "v.course_id", "c.id")
      .select(["c.id", "c.name", "c.unit_code", "c.created_at", "v.risk_rating", "v.last_validated_on", "v.next_due_on"])
      .where("c.is_active", "=", 1)
      .execute(),
    db.selectFrom("validation_plans").select(["id", "course_id", "planned_on"]).where("completed_at", "is", null).orderBy("planned_on").orderBy("id").execute(),
  ]);
  return rows
    .map((r) => {
      const risk = (r.risk_rating as RiskRating | null) ?? DEFAULT_RISK;
      const next = r.next_due_on ?? latestNextValidation(risk, organisationDate(r.created_at));
      const plan = plans.find((p) => p.course_id === r.id);
      return {
        course: { id: r.id, name: r.name, unit_code: r.unit_code },
        risk_rating: risk,
        rated: r.risk_rating !== null,
        last_validated_on: r.last_validated_on,
        next_due_on: next,
        state: validationState(next, today),
        open_plan: plan ? { id: plan.id, planned_on: plan.planned_on } : null,
      };
    })
    .sort((a, b) => a.next_due_on.localeCompare(b.next_due_on) || a.course.name.localeCompare(b.course.name));
}

/**
 * What was set of a course's validation: its rating and last validation (null where nothing was:
 * a course never rated or never validated); null when there is no such course. The next
 * validation is not among them: left out, it is the latest the rating allows.
 */
export async function recordedCourseValidation(db: DB, courseId: string): Promise<{ risk_rating: string | null; last_validated_on: string | null } | null> {
  const row = await db
    .selectFrom("courses as c")
    .leftJoin("course_validations as v", "v.course_id", "c.id")
    .select(["v.risk_rating", "v.last_validated_on"])
    .where("c.id", "=", courseId)
    .executeTakeFirst();
  return row ?? null;
}

/** Courses whose validation is overdue or due within VALIDATION_DUE_DAYS. */
export async function validationsDue(db: DB, today = organisationToday()): Promise<CourseValidation[]> {
  return (await listCourseValidations(db, today)).filter((c) => c.state !== "scheduled");
}

/**
 * Sets a course's risk rating and validation days. The next validation defaults to the latest
 * the rating allows after the last one (or after the day the course was added, when it has never
 * been validated) and may be set sooner, never later.
 */
export async function setCourseValidation(db: DB, input: CourseValidationInput, actorRef: SignedInActorRef, now = new Date()): Promise<CourseValidation> {
  const actor = signedInActor(actorRef);
  await writeTransaction(db, async (trx) => {
    const course = await trx.selectFrom("courses").select(["id", "created_at"]).where("id", "=", input.course_id).executeTakeFirst();
    if (!course) throw notFound("Course");
    if (input.last_validated_on && input.last_validated_on > organisationToday(now)) {
      throw invalid("The last validation cannot be in the future", { last_validated_on: "The last validation cannot be in the future" });
    }
    const from = input.last_validated_on ?? organisationDate(course.created_at);
    const latest = latestNextValidation(input.risk_rating, from);
    const next = input.next_due_on ?? latest;
    if (next > latest) {
      const message = STANDARDS_MESSAGES.nextDueTooLate(VALIDATION_INTERVAL_MONTHS[input.risk_rating], latest);
      throw invalid(message, { next_due_on: message });
    }
    const at = now.toISOString();
    const values = { risk_rating: input.risk_rating, last_validated_on: input.last_validated_on, next_due_on: next, updated_by: actor.id, updated_at: at };
    const existing = await trx.selectFrom("course_validations").select("course_id").where("course_id", "=", course.id).executeTakeFirst();
    if (existing) await trx.updateTable("course_validations").set(values).where("course_id", "=", course.id).execute();
    else
      await trx
        .insertInto("course_validations")
        .values({ course_id: course.id, ...values })
        .execute();
    await recordAudit(trx, {
      action: "validation.rating_set",
      actor,
      subject: { type: "course", id: course.id },
      detail: `${input.risk_rating} risk, next ${next}`,
      now: at,
    });
  });
  return (await listCourseValidations(db, organisationToday(now))).find((c) => c.course.id === input.course_id)!;
}

/**
 * The sample: a Fisher-Yates shuffle of the population (ordered by id) driven by the seeded
 * xoroshiro128+ generator, cut to `size`. The same ids and seed always give the same sample.
 */
export function sampleFromSeed<T extends string>(population: readonly T[], seed: number, size: number): T[] {
  const items = [...population].sort();
  const rng = xoroshiro128plus(seed);
  const n = Math.min(size, items.length);
  for (let i = 0; i < n; i++) {
    const j = uniformInt(rng, i, items.length - 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items.slice(0, n);
}

export interface ValidationPlanSummary {
  id: string;
  course: { id: string; name: string; unit_code: string };
  planned_on: string;
  sample_size: number;
  validators: Array<{ id: string; full_name: string }>;
  sampled: boolean;
  findings_open: number;
  completed_at: string | null;
}

export interface SampleItem {
  id: string;
  position: number;
  assessment: {
    id: string;
    assessment_type: string;
    status: string;
    assessment_date: string;
    student_name: string;
    assessor: { id: string; full_name: string } | null;
  };
  outcome: FindingOutcome | null;
  finding: string | null;
  action: string | null;
  recorded_at: string | null;
}

export interface ValidationPlan extends ValidationPlanSummary {
  seed: number | null;
  sampled_at: string | null;
  population: number | null;
  summary: string | null;
  samples: SampleItem[];
}

async function validatorsOf(db: DB, planIds: string[]) {
  if (!planIds.length) return new Map<string, Array<{ id: string; full_name: string }>>();
  const rows = await db
    .selectFrom("validation_validators as v")
    .innerJoin("users as u", "u.id", "v.validator_id")
    .select(["v.plan_id", "u.id", "u.full_name"])
    .where("v.plan_id", "in", planIds)
    .orderBy("u.full_name")
    .execute();
  const map = new Map<string, Array<{ id: string; full_name: string }>>();
  for (const r of rows) map.set(r.plan_id, [...(map.get(r.plan_id) ?? []), { id: r.id, full_name: r.full_name }]);
  return map;
}

/** Every plan, open ones first (soonest), then completed ones (latest first). */
export async function listValidationPlans(db: DB, filter: { courseId?: string } = {}): Promise<ValidationPlanSummary[]> {
  let query = db
    .selectFrom("validation_plans as p")
    .innerJoin("courses as c", "c.id", "p.course_id")
    .select((eb) => [
      "p.id",
      "p.course_id",
      "c.name",
      "c.unit_code",
      "p.planned_on",
      "p.sample_size",
      "p.sampled_at",
      "p.completed_at",
      eb
        .selectFrom("validation_samples as s")
        .select((e) => e.fn.countAll().as("n"))
        .whereRef("s.plan_id", "=", "p.id")
        .where("s.outcome", "is", null)
        .as("open"),
    ]);
  if (filter.courseId) query = query.where("p.course_id", "=", filter.courseId);
  const rows = await query.orderBy("p.planned_on", "desc").orderBy("p.id").limit(200).execute();
  const validators = await validatorsOf(
    db,
    rows.map((r) => r.id),
  );
  const plans = rows.map((r) => ({
    id: r.id,
    course: { id: r.course_id, name: r.name, unit_code: r.unit_code },
    planned_on: r.planned_on,
    sample_size: r.sample_size,
    validators: validators.get(r.id) ?? [],
    sampled: r.sampled_at !== null,
    findings_open: Number(r.open ?? 0),
    completed_at: r.completed_at,
  }));
  return [...plans.filter((p) => !p.completed_at).reverse(), ...plans.filter((p) => p.completed_at)];
}

export async function getValidationPlan(db: DB, id: string): Promise<ValidationPlan | null> {
  const plan = await db
    .selectFrom("validation_plans as p")
    .innerJoin("courses as c", "c.id", "p.course_id")
    .select([
      "p.id",
      "p.course_id",
      "c.name",
      "c.unit_code",
      "p.planned_on",
      "p.sample_size",
      "p.seed",
      "p.sampled_at",
      "p.population",
      "p.completed_at",
      "p.summary",
    ])
    .where("p.id", "=", id)
    .executeTakeFirst();
  if (!plan) return null;
  const [validators, samples] = await Promise.all([
    validatorsOf(db, [plan.id]),
    db
      .selectFrom("validation_samples as s")
      .innerJoin("assessments as a", "a.id", "s.assessment_id")
      .innerJoin("users as st", "st.id", "a.student_id")
      .leftJoin("users as asr", "asr.id", "a.assessed_by")
      .select([
        "s.id",
        "s.position",
        "s.outcome",
        "s.finding",
        "s.action",
        "s.recorded_at",
        "a.id as assessment_id",
        "a.assessment_type",
        "a.status",
        "a.assessment_date",
        "st.full_name as student_name",
        "asr.id as assessor_id",
        "asr.full_name as assessor_name",
      ])
      .where("s.plan_id", "=", plan.id)
      .orderBy("s.position")
      .execute(),
  ]);
  return {
    id: plan.id,
    course: { id: plan.course_id, name: plan.name, unit_code: plan.unit_code },
    planned_on: plan.planned_on,
    sample_size: plan.sample_size,
    validators: validators.get(plan.id) ?? [],
    sampled: plan.sampled_at !== null,
    findings_open: samples.filter((s) => !s.outcome).length,
    completed_at: plan.completed_at,
    seed: plan.seed,
    sampled_at: plan.sampled_at,
    population: plan.population,
    summary: plan.summary,
    samples: samples.map((s) => ({
      id: s.id,
      position: s.position,
      assessment: {
        id: s.assessment_id,
        assessment_type: s.assessment_type,
        status: s.status,
        assessment_date: s.assessment_date.slice(0, 10),
        student_name: s.student_name,
        assessor: s.assessor_id && s.assessor_name ? { id: s.assessor_id, full_name: s.assessor_name } : null,
      },
      outcome: s.outcome as FindingOutcome | null,
      finding: s.finding,
      action: s.action,
      recorded_at: s.recorded_at,
    })),
  };
}

/** Plans a validation: course, date, sample size and validators, each credentialed for the course's unit on the day. */
export async function createValidationPlan(db: DB, input: ValidationPlanInput, actorRef: SignedInActorRef, now = new Date()): Promise<{ id: string }> {
  const actor = signedInActor(actorRef);
  return writeTransaction(db, async (trx) => {
    const course = await trx.selectFrom("courses").select(["id", "unit_code"]).where("id", "=", input.course_id).executeTakeFirst();
    if (!course) throw new DomainError(404, "Course not found", { course_id: "Choose a course" }, "course_id");
    for (const validatorId of input.validator_ids) {
      const validator = await trx
        .selectFrom("users")
        .select("id")
        .where("id", "=", validatorId)
        .where("role", "in", ["trainer", "admin"])
        .where("is_active", "=", 1)
        .executeTakeFirst();
      const problem = validator ? await credentialProblem(trx, validatorId, course.unit_code, [input.planned_on]) : STANDARDS_MESSAGES.notATrainer;
      if (problem) {
        const message = STANDARDS_MESSAGES.validatorNotCredentialed(problem);
        throw new DomainError(409, message, { validator_ids: message }, "validator_ids");
      }
    }
    const id = crypto.randomUUID();
    const at = now.toISOString();
    await trx
      .insertInto("validation_plans")
      .values({ id, course_id: course.id, planned_on: input.planned_on, sample_size: input.sample_size, created_by: actor.id, created_at: at })
      .execute();
    await trx
      .insertInto("validation_validators")
      .values(input.validator_ids.map((v) => ({ plan_id: id, validator_id: v })))
      .execute();
    await recordAudit(trx, {
      action: "validation.planned",
      actor,
      subject: { type: "validation_plan", id },
      detail: `${course.unit_code} on ${input.planned_on}, sample of ${input.sample_size}, ${input.validator_ids.length} validator(s)`,
      now: at,
    });
    return { id };
  });
}

/**
 * The population a plan samples: the course's completed assessments recorded by `asOf`, none
 * made by one of the plan's validators (a validator's own judgements are never in the sample).
 */
async function population(db: DB, plan: { id: string; course_id: string }): Promise<string[]> {
  const rows = await db
    .selectFrom("assessments")
    .select("id")
    .where("course_id", "=", plan.course_id)
    .where("status", "in", COMPLETED_STATUSES)
    .where("assessed_by", "is not", null)
    .where("assessed_by", "not in", db.selectFrom("validation_validators").select("validator_id").where("plan_id", "=", plan.id))
    .execute();
  return rows.map((r) => r.id).sort();
}

/** Draws the plan's sample once, from a fresh seed it records with the instant it drew it. */
export async function drawSample(
  db: DB,
  planId: string,
  actorRef: SignedInActorRef,
  now = new Date(),
  seed = crypto.randomInt(1, 2 ** 31 - 1),
): Promise<{ seed: number; assessment_ids: string[] }> {
  const actor = signedInActor(actorRef);
  return writeTransaction(db, async (trx) => {
    const plan = await trx
      .selectFrom("validation_plans")
      .select(["id", "course_id", "sample_size", "sampled_at", "completed_at"])
      .where("id", "=", planId)
      .executeTakeFirst();
    if (!plan) throw notFound("Validation plan");
    if (plan.sampled_at) throw conflict(STANDARDS_MESSAGES.sampleDrawn);
    const at = now.toISOString();
    const ids = await population(trx, plan);
    if (ids.length < plan.sample_size) throw conflict(STANDARDS_MESSAGES.sampleTooLarge(ids.length, plan.sample_size));
    const chosen = sampleFromSeed(ids, seed, plan.sample_size);
    await trx
      .updateTable("validation_plans")
      .set({ seed, sampled_at: at, population: ids.length, population_ids: JSON.stringify(ids) })
      .where("id", "=", plan.id)
      .where("sampled_at", "is", null)
      .execute();
    await trx
      .insertInto("validation_samples")
      .values(chosen.map((assessmentId, i) => ({ id: crypto.randomUUID(), plan_id: plan.id, assessment_id: assessmentId, position: i + 1 })))
      .execute();
    await recordAudit(trx, {
      action: "validation.sampled",
      actor,
      subject: { type: "validation_plan", id: plan.id },
      detail: `${chosen.length} of ${ids.length}, seed ${seed}`,
      now: at,
    });
    return { seed, assessment_ids: chosen };
  });
}

/**
 * The sample drawn again from the recorded seed over the recorded population: what an auditor
 * reruns to check it (results change after the draw, so the population is the one kept, not today's).
 */
export async function reproduceSample(db: DB, planId: string): Promise<string[]> {
  const plan = await db.selectFrom("validation_plans").select(["id", "sample_size", "seed", "population_ids"]).where("id", "=", planId).executeTakeFirst();
  if (!plan) throw notFound("Validation plan");
  if (plan.seed === null || !plan.population_ids) throw conflict(STANDARDS_MESSAGES.noSample);
  return sampleFromSeed(JSON.parse(plan.population_ids) as string[], Number(plan.seed), plan.sample_size);
}

/** Records (or corrects) the finding on one item of the sample, until the validation is completed. */
export async function recordFinding(db: DB, planId: string, input: ValidationFindingInput, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  await writeTransaction(db, async (trx) => {
    const item = await trx
      .selectFrom("validation_samples as s")
      .innerJoin("validation_plans as p", "p.id", "s.plan_id")
      .select(["s.id", "s.position", "p.completed_at"])
      .where("s.id", "=", input.sample_id)
      .where("s.plan_id", "=", planId)
      .executeTakeFirst();
    if (!item) throw notFound("Sample item");
    if (item.completed_at) throw conflict(STANDARDS_MESSAGES.planCompleted);
    const at = now.toISOString();
    await trx
      .updateTable("validation_samples")
      .set({ outcome: input.outcome, finding: input.finding, action: input.action, recorded_by: actor.id, recorded_at: at })
      .where("id", "=", item.id)
      .execute();
    await recordAudit(trx, {
      action: "validation.finding_recorded",
      actor,
      subject: { type: "validation_plan", id: planId },
      detail: `item ${item.position}: ${input.outcome}`,
      now: at,
    });
  });
}

/**
 * Completes a validation once every sampled item has its finding: the course counts as validated
 * today, and its next validation is the latest its rating allows from today.
 */
export async function completeValidation(db: DB, planId: string, summary: string | null, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  await writeTransaction(db, async (trx) => {
    const plan = await trx.selectFrom("validation_plans").select(["id", "course_id", "sampled_at", "completed_at"]).where("id", "=", planId).executeTakeFirst();
    if (!plan) throw notFound("Validation plan");
    if (plan.completed_at) throw conflict(STANDARDS_MESSAGES.planCompleted);
    if (!plan.sampled_at) throw conflict(STANDARDS_MESSAGES.noSample);
    const open = await trx
      .selectFrom("validation_samples")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("plan_id", "=", plan.id)
      .where("outcome", "is", null)
      .executeTakeFirstOrThrow();
    if (Number(open.n) > 0) throw conflict(STANDARDS_MESSAGES.findingsMissing(Number(open.n)));
    const at = now.toISOString();
    const today = organisationToday(now);
    await trx.updateTable("validation_plans").set({ completed_at: at, summary }).where("id", "=", plan.id).execute();
    const current = await trx.selectFrom("course_validations").select("risk_rating").where("course_id", "=", plan.course_id).executeTakeFirst();
    const risk = (current?.risk_rating as RiskRating | undefined) ?? DEFAULT_RISK;
    const values = { risk_rating: risk, last_validated_on: today, next_due_on: latestNextValidation(risk, today), updated_by: actor.id, updated_at: at };
    if (current) await trx.updateTable("course_validations").set(values).where("course_id", "=", plan.course_id).execute();
    else
      await trx
        .insertInto("course_validations")
        .values({ course_id: plan.course_id, ...values })
        .execute();
    await recordAudit(trx, {
      action: "validation.completed",
      actor,
      subject: { type: "validation_plan", id: plan.id },
      detail: `next validation ${values.next_due_on}`,
      now: at,
    });
  });
}
