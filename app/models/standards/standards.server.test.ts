import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../../tests/support/factories";
import { addDays, addMonths, organisationToday } from "~/utils/organisation-calendar";
import { formatDate } from "~/utils/format";
import { createClass, updateClass } from "../class.server";
import { recordAssessment } from "../assessment.server";
import {
  addActivity,
  addTrainingCredential,
  confirmActivity,
  credentialMatrix,
  credentialMatrixPage,
  credentialProblem,
  expiringCredentials,
  getTrainerProfile,
  MATRIX_TRAINERS_PER_PAGE,
  recordTrainerUnit,
} from "./trainer-credential.server";
import {
  completeValidation,
  createValidationPlan,
  drawSample,
  getValidationPlan,
  listCourseValidations,
  recordFinding,
  reproduceSample,
  sampleFromSeed,
  setCourseValidation,
  validationsDue,
} from "./validation.server";

let db: DB;
let cleanup: () => Promise<void>;
let admin: { id: string };
const today = organisationToday();

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  admin = await makeUser(db, { role: "admin" });
});
afterAll(() => cleanup());

const unitCode = () => `U${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
const classInput = (trainerId: string) => ({
  start_date: addDays(today, 10),
  end_date: addDays(today, 11),
  sessions: [{ date: addDays(today, 10), starts_at: "07:30", ends_at: "15:30" }],
  trainer_id: trainerId,
  seats: 8,
});

async function locationReady() {
  const at = new Date().toISOString();
  const existing = await db.selectFrom("delivery_locations").select("id").executeTakeFirst();
  if (!existing)
    await db
      .insertInto("delivery_locations")
      .values({
        id: crypto.randomUUID(),
        identifier: "STD1",
        name: "Yard",
        suburb: "Botany",
        postcode: "2019",
        state: "01",
        country: "1101",
        created_at: at,
        updated_at: at,
      })
      .execute();
}

describe("who may teach and assess a unit", () => {
  it("a trainer without the unit cannot be put on a class (409 with the reason); with it recorded, they can", async () => {
    await locationReady();
    const unit = unitCode();
    const course = await makeCourse(db, { unit_code: unit, credit_trainers: false });
    const trainer = await makeUser(db, { role: "trainer", full_name: "Ned Nounit", units: [] });
    await expect(createClass(db, course.id, classInput(trainer.id), admin.id)).rejects.toMatchObject({
      status: 409,
      message: `Ned Nounit is not credentialed for unit ${unit} on ${formatDate(addDays(today, 10))}`,
      field: "trainer_id",
    });
    expect(await db.selectFrom("classes").select("id").where("course_id", "=", course.id).execute()).toHaveLength(0);
    await recordTrainerUnit(db, trainer.id, { unit_code: unit, basis: "held", evidence: null, expires_on: null }, admin.id);
    const made = await createClass(db, course.id, classInput(trainer.id), admin.id);
    // moving the class to another trainer without the unit is refused too, and changes nothing
    const other = await makeUser(db, { role: "trainer", full_name: "Olive Other", units: [] });
    await expect(updateClass(db, made.id, { trainer_id: other.id }, admin.id)).rejects.toMatchObject({ status: 409 });
    expect((await db.selectFrom("classes").select("trainer_id").where("id", "=", made.id).executeTakeFirstOrThrow()).trainer_id).toBe(trainer.id);
  });

  it("a unit that expires before the class ends is refused", async () => {
    await locationReady();
    const unit = unitCode();
    const course = await makeCourse(db, { unit_code: unit, credit_trainers: false });
    const trainer = await makeUser(db, { role: "trainer", units: [] });
    await recordTrainerUnit(db, trainer.id, { unit_code: unit, basis: "held", evidence: null, expires_on: addDays(today, 10) }, admin.id);
    await expect(createClass(db, course.id, classInput(trainer.id), admin.id)).rejects.toMatchObject({ status: 409 });
  });

  it("a trainer without the unit cannot record its result; nothing is stored", async () => {
    const unit = unitCode();
    const course = await makeCourse(db, { unit_code: unit, credit_trainers: false });
    const trainer = await makeUser(db, { role: "trainer", full_name: "Rita Result", units: [] });
    const student = await makeUser(db);
    const enrollment = await makeEnrollment(db, student.id, course.id, { status: "in_progress", enrollment_date: addDays(today, -20) });
    const input = {
      enrollment_id: enrollment.id,
      assessment_type: "Practical" as const,
      status: "passed" as const,
      score: 9,
      max_score: 10,
      assessment_date: today,
      feedback: null,
      actorId: trainer.id,
    };
    await expect(recordAssessment(db, input)).rejects.toMatchObject({
      status: 409,
      message: `Rita Result is not credentialed for unit ${unit} on ${formatDate(today)}`,
    });
    expect(await db.selectFrom("assessments").select("id").where("enrollment_id", "=", enrollment.id).execute()).toHaveLength(0);
    await recordTrainerUnit(db, trainer.id, { unit_code: unit, basis: "equivalent", evidence: "Ten years as a crane supervisor", expires_on: null }, admin.id);
    await expect(recordAssessment(db, input)).resolves.toMatchObject({ id: expect.any(String) });
  });

  it("a trainer with the unit but no training credential is refused", async () => {
    const unit = unitCode();
    const trainer = await makeUser(db, { role: "trainer", full_name: "Cal Nocred", credentialed: false });
    await recordTrainerUnit(db, trainer.id, { unit_code: unit, basis: "held", evidence: null, expires_on: null }, admin.id);
    expect(await credentialProblem(db, trainer.id, unit, [today])).toBe(`Cal Nocred holds no training and assessment credential on ${formatDate(today)}`);
  });

  it("work under direction counts only while the supervisor holds a credential", async () => {
    const unit = unitCode();
    const supervisor = await makeUser(db, { role: "trainer", full_name: "Sue Pervisor", credentialed: false });
    const junior = await makeUser(db, { role: "trainer", full_name: "Jo Junior", credentialed: false });
    await recordTrainerUnit(db, junior.id, { unit_code: unit, basis: "held", evidence: null, expires_on: null }, admin.id);
    // a supervisor who holds nothing cannot be named
    await expect(
      addTrainingCredential(
        db,
        junior.id,
        { credential: "under_direction", supervisor_id: supervisor.id, issued_on: addDays(today, -30), expires_on: null, note: null },
        admin.id,
      ),
    ).rejects.toMatchObject({ status: 422 });
    // the supervisor's credential lapses in 20 days
    await addTrainingCredential(
      db,
      supervisor.id,
      { credential: "TAE40122", supervisor_id: null, issued_on: addDays(today, -400), expires_on: addDays(today, 20), note: null },
      admin.id,
    );
    await addTrainingCredential(
      db,
      junior.id,
      { credential: "under_direction", supervisor_id: supervisor.id, issued_on: addDays(today, -30), expires_on: null, note: null },
      admin.id,
    );
    expect(await credentialProblem(db, junior.id, unit, [today])).toBeNull();
    expect(await credentialProblem(db, junior.id, unit, [addDays(today, 21)])).toBe(
      `Jo Junior works under the direction of Sue Pervisor, who holds no training and assessment credential on ${formatDate(addDays(today, 21))}`,
    );
    const profile = await getTrainerProfile(db, junior.id, today);
    expect(profile.standing).toBeNull();
    expect(profile.credentials[0]!.label).toBe("Working under the direction of Sue Pervisor");
    // the matrix shows the junior's unit as expiring (the direction ends with the supervisor's credential)
    const course = await makeCourse(db, { unit_code: unit, credit_trainers: false });
    const matrix = await credentialMatrix(db, today);
    expect(matrix.cells[junior.id]![course.id]).toMatchObject({ state: "expiring" });
    expect((await expiringCredentials(db, today)).map((e) => e.trainer.full_name)).toContain("Sue Pervisor");
  });

  it("the matrix shows held and missing, and changes when a unit is recorded", async () => {
    const unit = unitCode();
    const course = await makeCourse(db, { unit_code: unit, credit_trainers: false });
    const trainer = await makeUser(db, { role: "trainer", units: [] });
    expect((await credentialMatrix(db, today)).cells[trainer.id]![course.id]!.state).toBe("missing");
    await recordTrainerUnit(db, trainer.id, { unit_code: unit, basis: "held", evidence: null, expires_on: null }, admin.id);
    expect((await credentialMatrix(db, today)).cells[trainer.id]![course.id]!.state).toBe("held");
  });

  it("the matrix page shows the trainers a page at a time, in the whole matrix's order, each cell as the whole matrix has it", async () => {
    for (let i = 0; i < MATRIX_TRAINERS_PER_PAGE + 1; i++) await makeUser(db, { role: "trainer" });
    const whole = await credentialMatrix(db, today);
    const pages = Math.ceil(whole.trainers.length / MATRIX_TRAINERS_PER_PAGE);
    expect(pages).toBeGreaterThan(1);
    const seen: string[] = [];
    for (let page = 1; page <= pages; page++) {
      const shown = await credentialMatrixPage(db, today, { page });
      expect(shown).toMatchObject({ page, pageCount: pages, trainerCount: whole.trainers.length });
      expect(shown.matrix.trainers.length).toBe(page < pages ? MATRIX_TRAINERS_PER_PAGE : whole.trainers.length - (pages - 1) * MATRIX_TRAINERS_PER_PAGE);
      for (const t of shown.matrix.trainers) expect(shown.matrix.cells[t.id]).toEqual(whole.cells[t.id]);
      seen.push(...shown.matrix.trainers.map((t) => t.id));
    }
    expect(seen).toEqual(whole.trainers.map((t) => t.id));
    // a page past the last shows the last
    expect((await credentialMatrixPage(db, today, { page: pages + 5 })).page).toBe(pages);
    // a name searched for: only trainers whose name holds it, counted alike; % and _ are letters
    const named = await makeUser(db, { role: "trainer", full_name: "Quinn 100%_Rigger" });
    const found = await credentialMatrixPage(db, today, { page: 1, search: "  QUINN 100%_r " });
    expect(found).toMatchObject({ page: 1, pageCount: 1, trainerCount: 1 });
    expect(found.matrix.trainers.map((t) => t.id)).toEqual([named.id]);
    expect((await credentialMatrixPage(db, today, { page: 1, search: "100%x" })).trainerCount).toBe(0);
  });

  it("a trainer's own activity waits for an administrator's confirmation (audited), once", async () => {
    const trainer = await makeUser(db, { role: "trainer" });
    const { id } = await addActivity(
      db,
      trainer.id,
      { kind: "industry", activity_date: addDays(today, -3), hours: 6.5, description: "Site visit", evidence: null },
      { id: trainer.id, role: "trainer" },
    );
    expect((await getTrainerProfile(db, trainer.id, today)).currency).toMatchObject({ industry_hours: 0, unconfirmed: 1 });
    await confirmActivity(db, id, admin.id);
    expect((await getTrainerProfile(db, trainer.id, today)).currency).toMatchObject({ industry_hours: 6.5, unconfirmed: 0 });
    await expect(confirmActivity(db, id, admin.id)).rejects.toMatchObject({ status: 409 });
    const audit = await db
      .selectFrom("audit_log")
      .select(["action", "actor_id"])
      .where("subject_id", "=", trainer.id)
      .where("action", "=", "credential.activity_confirmed")
      .execute();
    expect(audit).toEqual([{ action: "credential.activity_confirmed", actor_id: admin.id }]);
  });
});

describe("validation", () => {
  it("a course past 5 years shows overdue, whatever its rating; a high-risk course is due after 12 months", async () => {
    const course = await makeCourse(db, { unit_code: unitCode() });
    await setCourseValidation(
      db,
      { course_id: course.id, risk_rating: "low", last_validated_on: addDays(addMonths(today, -60), -1), next_due_on: null },
      admin.id,
    );
    const row = (await listCourseValidations(db, today)).find((c) => c.course.id === course.id)!;
    expect(row).toMatchObject({ state: "overdue", next_due_on: addDays(today, -1) });
    expect((await validationsDue(db, today)).map((c) => c.course.id)).toContain(course.id);
    // a next validation later than the rating allows is refused
    await expect(
      setCourseValidation(
        db,
        { course_id: course.id, risk_rating: "high", last_validated_on: addMonths(today, -6), next_due_on: addMonths(today, 7) },
        admin.id,
      ),
    ).rejects.toMatchObject({ status: 422 });
    const high = await setCourseValidation(
      db,
      { course_id: course.id, risk_rating: "high", last_validated_on: addMonths(today, -11), next_due_on: null },
      admin.id,
    );
    expect(high).toMatchObject({ state: "due", next_due_on: addMonths(addMonths(today, -11), 12) });
  });

  it("a course never rated and added more than 5 years ago is overdue", async () => {
    const course = await makeCourse(db, { unit_code: unitCode() });
    await db
      .updateTable("courses")
      .set({ created_at: new Date(Date.now() - 6 * 366 * 864e5).toISOString() })
      .where("id", "=", course.id)
      .execute();
    expect((await listCourseValidations(db, today)).find((c) => c.course.id === course.id)).toMatchObject({ state: "overdue", rated: false });
  });

  it("the sample is random, of the planned size, reproducible from its seed, and never holds a validator's own assessments", async () => {
    const unit = unitCode();
    const course = await makeCourse(db, { unit_code: unit });
    const assessors = [await makeUser(db, { role: "trainer" }), await makeUser(db, { role: "trainer" })];
    const validator = await makeUser(db, { role: "trainer", full_name: "Val Idator" });
    const mine: string[] = [];
    for (let i = 0; i < 30; i++) {
      const student = await makeUser(db);
      const enrollment = await makeEnrollment(db, student.id, course.id, { status: "in_progress", enrollment_date: addDays(today, -40) });
      const by = i % 3 === 0 ? validator.id : assessors[i % 2]!.id;
      const { id } = await recordAssessment(db, {
        enrollment_id: enrollment.id,
        assessment_type: "Practical",
        status: i % 4 ? "passed" : "failed",
        score: 8,
        max_score: 10,
        assessment_date: addDays(today, -5),
        feedback: i % 4 ? null : "Resit",
        actorId: by,
      });
      if (by === validator.id) mine.push(id);
    }
    // an unfinished one is not a judgement, so never sampled
    const open = await makeEnrollment(db, (await makeUser(db)).id, course.id, { status: "in_progress", enrollment_date: addDays(today, -40) });
    const unfinished = await recordAssessment(db, {
      enrollment_id: open.id,
      assessment_type: "Practical",
      status: "in_progress",
      score: null,
      max_score: null,
      assessment_date: addDays(today, -5),
      feedback: null,
      actorId: assessors[0]!.id,
    });

    const plan = await createValidationPlan(
      db,
      { course_id: course.id, planned_on: today, sample_size: 8, validator_ids: [validator.id, assessors[0]!.id] },
      admin.id,
    );
    const drawn = await drawSample(db, plan.id, admin.id);
    expect(drawn.assessment_ids).toHaveLength(8);
    expect(new Set(drawn.assessment_ids).size).toBe(8);
    for (const id of drawn.assessment_ids) {
      expect(mine).not.toContain(id);
      expect(id).not.toBe(unfinished.id);
    }
    const sampled = await db.selectFrom("assessments").select("assessed_by").where("id", "in", drawn.assessment_ids).execute();
    expect(new Set(sampled.map((s) => s.assessed_by))).toEqual(new Set([assessors[1]!.id]));
    // the seed is kept; drawing again from it gives the same items in the same order
    const stored = await getValidationPlan(db, plan.id);
    expect(stored!.seed).toBe(drawn.seed);
    expect(stored!.population).toBe(10);
    expect(await reproduceSample(db, plan.id)).toEqual(drawn.assessment_ids);
    await expect(drawSample(db, plan.id, admin.id)).rejects.toMatchObject({ status: 409 });
    // random: other seeds over the same population give other samples
    const population = JSON.parse(
      (await db.selectFrom("validation_plans").select("population_ids").where("id", "=", plan.id).executeTakeFirstOrThrow()).population_ids!,
    ) as string[];
    const samples = new Set([1, 2, 3, 4, 5, 6].map((seed) => sampleFromSeed(population, seed, 8).join(",")));
    expect(samples.size).toBeGreaterThan(1);
    expect(sampleFromSeed(population, 7, 8)).toEqual(sampleFromSeed([...population].reverse(), 7, 8));
  });

  it("validators must be credentialed for the unit; a sample larger than the work of others is refused", async () => {
    const unit = unitCode();
    const course = await makeCourse(db, { unit_code: unit, credit_trainers: false });
    const outsider = await makeUser(db, { role: "trainer", full_name: "Out Sider", units: [] });
    await expect(
      createValidationPlan(db, { course_id: course.id, planned_on: today, sample_size: 2, validator_ids: [outsider.id] }, admin.id),
    ).rejects.toMatchObject({
      status: 409,
      message: `Every validator must be credentialed for the unit: Out Sider is not credentialed for unit ${unit} on ${formatDate(today)}`,
    });
    await recordTrainerUnit(db, outsider.id, { unit_code: unit, basis: "held", evidence: null, expires_on: null }, admin.id);
    const plan = await createValidationPlan(db, { course_id: course.id, planned_on: today, sample_size: 2, validator_ids: [outsider.id] }, admin.id);
    await expect(drawSample(db, plan.id, admin.id)).rejects.toMatchObject({ status: 409 });
    expect((await getValidationPlan(db, plan.id))!.sampled).toBe(false);
  });

  it("findings per item, then completing sets the course's next validation from its rating", async () => {
    const course = await makeCourse(db, { unit_code: unitCode() });
    const assessor = await makeUser(db, { role: "trainer" });
    const validator = await makeUser(db, { role: "trainer" });
    for (let i = 0; i < 3; i++) {
      const enrollment = await makeEnrollment(db, (await makeUser(db)).id, course.id, { status: "in_progress", enrollment_date: addDays(today, -40) });
      await recordAssessment(db, {
        enrollment_id: enrollment.id,
        assessment_type: "Written",
        status: "passed",
        score: 9,
        max_score: 10,
        assessment_date: addDays(today, -2),
        feedback: null,
        actorId: assessor.id,
      });
    }
    await setCourseValidation(db, { course_id: course.id, risk_rating: "medium", last_validated_on: addMonths(today, -40), next_due_on: null }, admin.id);
    const plan = await createValidationPlan(db, { course_id: course.id, planned_on: today, sample_size: 2, validator_ids: [validator.id] }, admin.id);
    await drawSample(db, plan.id, admin.id);
    const items = (await getValidationPlan(db, plan.id))!.samples;
    await recordFinding(db, plan.id, { sample_id: items[0]!.id, outcome: "meets", finding: null, action: null }, validator.id);
    await expect(completeValidation(db, plan.id, null, admin.id)).rejects.toMatchObject({
      status: 409,
      message: "Record a finding for every item of the sample first (1 still open)",
    });
    await recordFinding(
      db,
      plan.id,
      { sample_id: items[1]!.id, outcome: "does_not_meet", finding: "No evidence of the pre-start check", action: "Revise the checklist" },
      validator.id,
    );
    await completeValidation(db, plan.id, "One gap", admin.id);
    expect((await listCourseValidations(db, today)).find((c) => c.course.id === course.id)).toMatchObject({
      last_validated_on: today,
      next_due_on: addMonths(today, 36),
      state: "scheduled",
    });
    await expect(recordFinding(db, plan.id, { sample_id: items[0]!.id, outcome: "meets", finding: null, action: null }, validator.id)).rejects.toMatchObject({
      status: 409,
    });
  });
});
