import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as trainerCredentialsApi from "~/routes/api+/admin.trainers.$id.credentials";
import * as trainerUnitsApi from "~/routes/api+/admin.trainers.$id.units";
import * as trainerActivitiesApi from "~/routes/api+/admin.trainers.$id.activities";
import * as confirmApi from "~/routes/api+/admin.trainer-activities.$id.confirm";
import * as myCredentialsApi from "~/routes/api+/credentials.my";
import * as myActivitiesApi from "~/routes/api+/credentials.my.activities";
import * as courseValidationsApi from "~/routes/api+/admin.course-validations";
import * as courseValidationApi from "~/routes/api+/admin.course-validations.$id";
import * as plansApi from "~/routes/api+/admin.validation-plans";
import * as planApi from "~/routes/api+/admin.validation-plans.$id";
import * as sampleApi from "~/routes/api+/admin.validation-plans.$id.sample";
import * as findingsApi from "~/routes/api+/admin.validation-plans.$id.findings";
import * as completeApi from "~/routes/api+/admin.validation-plans.$id.complete";
import * as addClassApi from "~/routes/api+/admin.courses.$id.classes";
import * as classApi from "~/routes/api+/admin.classes.$id";
import * as assessmentsApi from "~/routes/api+/assessments";
import * as activityEvidenceApi from "~/routes/api+/trainer-activities.$id.evidence";
import * as activityEvidencePage from "~/routes/trainer-activities.$id.evidence";
import { recordAssessment } from "~/models/assessment.server";
import { addActivity } from "~/models/standards/trainer-credential.server";
import { addDays, addMonths, organisationToday } from "~/utils/organisation-calendar";
import { formatDate } from "~/utils/format";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { conformsTo } from "../../tests/support/json-schema";
import { call, caller, sessionCookie, type Caller, type RouteModule } from "../../tests/support/api-calls";
import { gpsPhoto } from "../../tests/support/evidence-files";
import { openApiDocument } from "./openapi";

/**
 * Trainer credentials and course validation over /api: the same models and schemas as
 * /admin/credentials, /trainer/credentials and /admin/validations, every answer checked against
 * the OpenAPI document, and the refusals of a trainer not credentialed for a unit (409 with the
 * reason) on the class and assessment calls.
 */

const doc = openApiDocument() as unknown as Parameters<typeof conformsTo>[0];

let db: DB;
let cleanup: () => Promise<void>;
let admin: Caller;
let trainer: Caller;
const today = organisationToday();
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await caller(db, "admin");
  trainer = await caller(db, "trainer", { full_name: "Tess Trainer", credentialed: false });
});
const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), "activity-evidence-"));
beforeAll(() => {
  process.env.FILE_STORE = `file:${storeDir}`;
});
afterAll(async () => {
  await cleanup();
  fs.rmSync(storeDir, { recursive: true, force: true });
  delete process.env.FILE_STORE;
});

const mod = (m: unknown) => m as RouteModule;
const unitCode = () => `U${crypto.randomUUID().slice(0, 8).toUpperCase()}`;

const conforms = (response: Response, path: string, method: string) => conformsTo(doc, response, path, method);

describe("trainer credentials over /api", () => {
  it("an administrator records the credential and a unit; bad input and other callers are refused with nothing stored", async () => {
    const one = "/api/admin/trainers/{id}/credentials";
    const units = "/api/admin/trainers/{id}/units";
    const params = { id: trainer.id };
    const before = await conforms(await call(mod(trainerCredentialsApi), "GET", "/x", { token: admin.token, params }), one, "get");
    expect(before).toMatchObject({
      trainer: { id: trainer.id },
      credentials: [],
      units: [],
      standing: `Tess Trainer holds no training and assessment credential on ${formatDate(today)}`,
    });

    const bad = await conforms(
      await call(mod(trainerCredentialsApi), "POST", "/x", { token: admin.token, params, json: { credential: "under_direction", issued_on: "2020-02-30" } }),
      one,
      "post",
    );
    expect(Object.keys(bad.errors).sort()).toEqual(["issued_on", "supervisor_id"]);
    // a supervisor who holds no credential outright cannot direct anyone
    const uncredentialed = await makeUser(db, { role: "trainer", credentialed: false });
    const notHolder = await conforms(
      await call(mod(trainerCredentialsApi), "POST", "/x", {
        token: admin.token,
        params,
        json: { credential: "under_direction", supervisor_id: uncredentialed.id, issued_on: "2020-01-01" },
      }),
      one,
      "post",
    );
    expect(notHolder.errors).toHaveProperty("supervisor_id");
    expect(await db.selectFrom("trainer_credentials").select("id").where("trainer_id", "=", trainer.id).execute()).toHaveLength(0);

    const added = await conforms(
      await call(mod(trainerCredentialsApi), "POST", "/x", { token: admin.token, params, json: { credential: "TAE40122", issued_on: "2019-05-01" } }),
      one,
      "post",
    );
    expect(added).toMatchObject({ credentials: [{ credential: "TAE40122", issued_on: "2019-05-01", supervisor: null }], standing: null });

    const noEvidence = await conforms(
      await call(mod(trainerUnitsApi), "POST", "/x", { token: admin.token, params, json: { unit_code: "RIIHAN309F", basis: "equivalent" } }),
      units,
      "post",
    );
    expect(noEvidence.errors).toHaveProperty("evidence");
    const withUnit = await conforms(
      await call(mod(trainerUnitsApi), "POST", "/x", {
        token: admin.token,
        params,
        json: { unit_code: "riihan309f", basis: "equivalent", evidence: "Ten years as a dogman", expires_on: null },
      }),
      units,
      "post",
    );
    expect(withUnit.units).toMatchObject([{ unit_code: "RIIHAN309F", basis: "equivalent", evidence: "Ten years as a dogman" }]);

    await conforms(await call(mod(trainerCredentialsApi), "GET", "/x", { token: admin.token, params: { id: crypto.randomUUID() } }), one, "get");
    await conforms(
      await call(mod(trainerUnitsApi), "POST", "/x", {
        token: admin.token,
        params: { id: crypto.randomUUID() },
        json: { unit_code: "RIIHAN309F", basis: "held" },
      }),
      units,
      "post",
    );
    await conforms(await call(mod(trainerCredentialsApi), "GET", "/x", { token: trainer.token, params }), one, "get");
    await conforms(
      await call(mod(trainerUnitsApi), "POST", "/x", { token: trainer.token, params, json: { unit_code: "RIIHAN309F", basis: "held" } }),
      units,
      "post",
    );
  });

  it("a trainer adds their own activity, which waits for an administrator's confirmation (once)", async () => {
    const mine = "/api/credentials/my/activities";
    const confirm = "/api/admin/trainer-activities/{id}/confirm";
    const activity = { kind: "industry", activity_date: addDays(today, -3), hours: 7.5, description: "Two days rigging on a tower crane erection" };
    const future = await conforms(
      await call(mod(myActivitiesApi), "POST", "/x", { token: trainer.token, json: { ...activity, activity_date: addDays(today, 2) } }),
      mine,
      "post",
    );
    expect(future.errors).toHaveProperty("activity_date");
    const quarter = await conforms(await call(mod(myActivitiesApi), "POST", "/x", { token: trainer.token, json: { ...activity, hours: 1.1 } }), mine, "post");
    expect(quarter.errors).toHaveProperty("hours");
    expect(await db.selectFrom("trainer_activities").select("id").where("trainer_id", "=", trainer.id).execute()).toHaveLength(0);

    const added = await conforms(await call(mod(myActivitiesApi), "POST", "/x", { token: trainer.token, json: activity }), mine, "post");
    expect(added.activities).toMatchObject([{ kind: "industry", hours: 7.5, confirmed: null }]);
    expect(added.currency).toMatchObject({ industry_hours: 0, unconfirmed: 1 });
    const own = await conforms(await call(mod(myCredentialsApi), "GET", "/x", { token: trainer.token }), "/api/credentials/my", "get");
    expect(own.trainer.id).toBe(trainer.id);
    await conforms(await call(mod(myCredentialsApi), "GET", "/x", { token: admin.token }), "/api/credentials/my", "get");
    await conforms(await call(mod(myActivitiesApi), "POST", "/x", { token: admin.token, json: activity }), mine, "post");

    const id = added.activities[0].id as string;
    await conforms(await call(mod(confirmApi), "POST", "/x", { token: trainer.token, params: { id } }), confirm, "post");
    const confirmed = await conforms(await call(mod(confirmApi), "POST", "/x", { token: admin.token, params: { id } }), confirm, "post");
    expect(confirmed.activities[0].confirmed).toMatchObject({ by: expect.any(String) });
    expect(confirmed.currency).toMatchObject({ industry_hours: 7.5, unconfirmed: 0 });
    await conforms(await call(mod(confirmApi), "POST", "/x", { token: admin.token, params: { id } }), confirm, "post");
    await conforms(await call(mod(confirmApi), "POST", "/x", { token: admin.token, params: { id: crypto.randomUUID() } }), confirm, "post");

    // an administrator's entry is confirmed as made
    const byAdmin = await conforms(
      await call(mod(trainerActivitiesApi), "POST", "/x", {
        token: admin.token,
        params: { id: trainer.id },
        json: { ...activity, kind: "development", hours: 3 },
      }),
      "/api/admin/trainers/{id}/activities",
      "post",
    );
    expect(byAdmin.currency).toMatchObject({ development_hours: 3, unconfirmed: 0 });
  });

  it("assigning a trainer to a class, or recording a result, for a unit they are not credentialed for is a 409 with the reason", async () => {
    const unit = unitCode();
    const course = await makeCourse(db, { unit_code: unit, credit_trainers: false });
    const at = new Date().toISOString();
    if (!(await db.selectFrom("delivery_locations").select("id").executeTakeFirst())) {
      await db
        .insertInto("delivery_locations")
        .values({
          id: crypto.randomUUID(),
          identifier: "API1",
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
    const day = addDays(today, 20);
    const reason = `Tess Trainer is not credentialed for unit ${unit} on ${formatDate(day)}`;
    const body = { start_date: day, end_date: day, sessions: [{ date: day, starts_at: "07:30", ends_at: "15:30" }], trainer_id: trainer.id, seats: 6 };
    const refused = await conforms(
      await call(mod(addClassApi), "POST", "/x", { token: admin.token, params: { id: course.id }, json: body }),
      "/api/admin/courses/{id}/classes",
      "post",
    );
    expect(refused).toEqual({ detail: reason, errors: { trainer_id: reason } });
    expect(await db.selectFrom("classes").select("id").where("course_id", "=", course.id).execute()).toHaveLength(0);

    // a credentialed trainer's class cannot be moved to one without the unit
    const holder = await makeUser(db, { role: "trainer", units: [unit] });
    const made = await conforms(
      await call(mod(addClassApi), "POST", "/x", { token: admin.token, params: { id: course.id }, json: { ...body, trainer_id: holder.id } }),
      "/api/admin/courses/{id}/classes",
      "post",
    );
    const moved = await conforms(
      await call(mod(classApi), "PUT", "/x", { token: admin.token, params: { id: made.id }, json: { trainer_id: trainer.id } }),
      "/api/admin/classes/{id}",
      "put",
    );
    expect(moved.detail).toBe(reason);
    expect((await db.selectFrom("classes").select("trainer_id").where("id", "=", made.id).executeTakeFirstOrThrow()).trainer_id).toBe(holder.id);

    const student = await makeUser(db);
    const enrollment = await makeEnrollment(db, student.id, course.id, { status: "in_progress", enrollment_date: addDays(today, -10) });
    const result = { enrollment_id: enrollment.id, assessment_type: "Practical", status: "passed", score: 9, max_score: 10, assessment_date: today };
    const noResult = await conforms(await call(mod(assessmentsApi), "POST", "/x", { token: trainer.token, json: result }), "/api/assessments", "post");
    expect(noResult.detail).toBe(`Tess Trainer is not credentialed for unit ${unit} on ${formatDate(today)}`);
    expect(await db.selectFrom("assessments").select("id").where("enrollment_id", "=", enrollment.id).execute()).toHaveLength(0);
    const holderToken = await caller(db, "trainer", { units: [unit] });
    await conforms(await call(mod(assessmentsApi), "POST", "/x", { token: holderToken.token, json: result }), "/api/assessments", "post");
  });
});

describe("course validation over /api", () => {
  it("sets a course's rating, plans a validation, draws the sample, records findings and completes it", async () => {
    const unit = unitCode();
    const course = await makeCourse(db, { unit_code: unit, credit_trainers: false });
    const assessor = await makeUser(db, { role: "trainer", units: [unit] });
    const validator = await makeUser(db, { role: "trainer", units: [unit] });
    for (let i = 0; i < 3; i++) {
      const enrollment = await makeEnrollment(db, (await makeUser(db)).id, course.id, { status: "in_progress", enrollment_date: addDays(today, -30) });
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

    const rating = "/api/admin/course-validations/{id}";
    const tooLate = await conforms(
      await call(mod(courseValidationApi), "PUT", "/x", {
        token: admin.token,
        params: { id: course.id },
        json: { risk_rating: "high", last_validated_on: addMonths(today, -6), next_due_on: addMonths(today, 12) },
      }),
      rating,
      "put",
    );
    expect(tooLate.errors).toHaveProperty("next_due_on");
    const set = await conforms(
      await call(mod(courseValidationApi), "PUT", "/x", {
        token: admin.token,
        params: { id: course.id },
        json: { risk_rating: "high", last_validated_on: addMonths(today, -13) },
      }),
      rating,
      "put",
    );
    expect(set).toMatchObject({ course: { id: course.id }, risk_rating: "high", rated: true, next_due_on: addMonths(today, -1), state: "overdue" });
    // PUT is partial: a new rating alone keeps the last validation, and the next is the latest it allows
    const lowered = await conforms(
      await call(mod(courseValidationApi), "PUT", "/x", { token: admin.token, params: { id: course.id }, json: { risk_rating: "medium" } }),
      rating,
      "put",
    );
    expect(lowered).toMatchObject({ risk_rating: "medium", last_validated_on: addMonths(today, -13), next_due_on: addMonths(today, 23) });
    const relisted = await conforms(
      await call(mod(courseValidationApi), "PUT", "/x", { token: admin.token, params: { id: course.id }, json: { risk_rating: "high" } }),
      rating,
      "put",
    );
    expect(relisted).toMatchObject({ risk_rating: "high", last_validated_on: addMonths(today, -13), next_due_on: addMonths(today, -1) });
    await conforms(
      await call(mod(courseValidationApi), "PUT", "/x", { token: admin.token, params: { id: crypto.randomUUID() }, json: { risk_rating: "low" } }),
      rating,
      "put",
    );
    const listed = await conforms(await call(mod(courseValidationsApi), "GET", "/x", { token: admin.token }), "/api/admin/course-validations", "get");
    expect(listed.find((c: { course: { id: string } }) => c.course.id === course.id)).toMatchObject({ state: "overdue" });
    await conforms(await call(mod(courseValidationsApi), "GET", "/x", { token: trainer.token }), "/api/admin/course-validations", "get");

    // a validator not credentialed for the unit: 409 with the reason
    const plans = "/api/admin/validation-plans";
    const outsider = await conforms(
      await call(mod(plansApi), "POST", "/x", {
        token: admin.token,
        json: { course_id: course.id, planned_on: today, sample_size: 2, validator_ids: [trainer.id] },
      }),
      plans,
      "post",
    );
    expect(outsider.detail).toBe(
      `Every validator must be credentialed for the unit: Tess Trainer is not credentialed for unit ${unit} on ${formatDate(today)}`,
    );
    const created = await conforms(
      await call(mod(plansApi), "POST", "/x", {
        token: admin.token,
        json: { course_id: course.id, planned_on: today, sample_size: 2, validator_ids: [validator.id] },
      }),
      plans,
      "post",
    );
    const params = { id: created.id as string };
    const plan = "/api/admin/validation-plans/{id}";
    expect(await conforms(await call(mod(planApi), "GET", "/x", { token: admin.token, params }), plan, "get")).toMatchObject({
      sampled: false,
      samples: [],
      seed: null,
    });
    await conforms(await call(mod(planApi), "GET", "/x", { token: admin.token, params: { id: crypto.randomUUID() } }), plan, "get");
    await conforms(await call(mod(completeApi), "POST", "/x", { token: admin.token, params }), `${plan}/complete`, "post");

    const drawn = await conforms(await call(mod(sampleApi), "POST", "/x", { token: admin.token, params }), `${plan}/sample`, "post");
    expect(drawn).toMatchObject({ sampled: true, population: 3, findings_open: 2, seed: expect.any(Number) });
    expect(drawn.samples).toHaveLength(2);
    await conforms(await call(mod(sampleApi), "POST", "/x", { token: admin.token, params }), `${plan}/sample`, "post");

    const [first, second] = drawn.samples as Array<{ id: string }>;
    const needsFinding = await conforms(
      await call(mod(findingsApi), "POST", "/x", { token: admin.token, params, json: { sample_id: first!.id, outcome: "does_not_meet" } }),
      `${plan}/findings`,
      "post",
    );
    expect(needsFinding.errors).toHaveProperty("finding");
    await conforms(
      await call(mod(findingsApi), "POST", "/x", { token: admin.token, params, json: { sample_id: crypto.randomUUID(), outcome: "meets" } }),
      `${plan}/findings`,
      "post",
    );
    await conforms(
      await call(mod(findingsApi), "POST", "/x", {
        token: admin.token,
        params,
        json: { sample_id: first!.id, outcome: "does_not_meet", finding: "No pre-start check recorded", action: "Add it to the checklist" },
      }),
      `${plan}/findings`,
      "post",
    );
    const open = await conforms(await call(mod(completeApi), "POST", "/x", { token: admin.token, params, json: {} }), `${plan}/complete`, "post");
    expect(open.detail).toBe("Record a finding for every item of the sample first (1 still open)");
    await conforms(
      await call(mod(findingsApi), "POST", "/x", { token: admin.token, params, json: { sample_id: second!.id, outcome: "meets" } }),
      `${plan}/findings`,
      "post",
    );
    const done = await conforms(
      await call(mod(completeApi), "POST", "/x", { token: admin.token, params, json: { summary: "One gap in the checklist" } }),
      `${plan}/complete`,
      "post",
    );
    expect(done).toMatchObject({ findings_open: 0, summary: "One gap in the checklist", completed_at: expect.any(String) });
    expect(done.samples[0]).toMatchObject({ outcome: "does_not_meet", finding: "No pre-start check recorded", action: "Add it to the checklist" });
    await conforms(
      await call(mod(findingsApi), "POST", "/x", { token: admin.token, params, json: { sample_id: second!.id, outcome: "meets" } }),
      `${plan}/findings`,
      "post",
    );
    const after = await conforms(await call(mod(courseValidationsApi), "GET", "/x", { token: admin.token }), "/api/admin/course-validations", "get");
    expect(after.find((c: { course: { id: string } }) => c.course.id === course.id)).toMatchObject({
      last_validated_on: today,
      next_due_on: addMonths(today, 12),
      state: "scheduled",
    });
    await conforms(await call(mod(sampleApi), "POST", "/x", { token: trainer.token, params }), `${plan}/sample`, "post");
  });
});

describe("a currency activity's evidence file", () => {
  const at = "/api/trainer-activities/{id}/evidence";
  const audits = async (activityId: string) =>
    (
      await db
        .selectFrom("audit_log")
        .select(["action", "actor_id"])
        .where("subject_id", "=", activityId)
        .where("action", "=", "credential.evidence_downloaded")
        .execute()
    ).map((r) => r.actor_id);

  it("is uploaded by its trainer, downloaded by them and administrators (each audited), and by nobody else", async () => {
    const { id } = await addActivity(
      db,
      trainer.id,
      { kind: "development", activity_date: addDays(today, -1), hours: 2, description: "Load chart refresher", evidence: null },
      { id: trainer.id, role: "trainer" },
    );
    const params = { id };
    // bytes that are no photo, PDF or MP4 are refused whatever their name, and nothing is kept
    const refused = await conforms(
      await call(mod(activityEvidenceApi), "POST", "/x", {
        token: trainer.token,
        params,
        multipart: { files: [{ field: "evidence_file", name: "cert.pdf", bytes: Buffer.from("not a pdf at all") }] },
      }),
      at,
      "post",
    );
    expect(refused.errors).toHaveProperty("evidence_file");
    expect((await db.selectFrom("trainer_activities").select("evidence_sha256").where("id", "=", id).executeTakeFirstOrThrow()).evidence_sha256).toBeNull();
    await conforms(await call(mod(activityEvidenceApi), "POST", "/x", { token: trainer.token, params, json: { evidence_file: "x" } }), at, "post");
    const other = await caller(db, "trainer");
    await conforms(
      await call(mod(activityEvidenceApi), "POST", "/x", {
        token: other.token,
        params,
        multipart: { files: [{ field: "evidence_file", name: "a.jpg", bytes: await gpsPhoto() }] },
      }),
      at,
      "post",
    );

    const photo = await gpsPhoto(40);
    const attached = await conforms(
      await call(mod(activityEvidenceApi), "POST", "/x", {
        token: trainer.token,
        params,
        multipart: { files: [{ field: "evidence_file", name: "certificate.jpeg", bytes: photo }] },
      }),
      at,
      "post",
    );
    expect(attached.activities.find((a: { id: string }) => a.id === id)).toMatchObject({ evidence_file: "certificate.jpeg" });

    const own = await call(mod(activityEvidenceApi), "GET", "/x", { token: trainer.token, params });
    expect(own.status).toBe(200);
    expect(own.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(own.headers.get("Content-Disposition")).toContain('attachment; filename="certificate.jpg"');
    expect((await own.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const byAdmin = await call(mod(activityEvidencePage), "GET", `/trainer-activities/${id}/evidence`, { cookie: await sessionCookie(db, admin.id), params });
    expect(byAdmin.status).toBe(200);
    expect(await audits(id)).toEqual(expect.arrayContaining([trainer.id, admin.id]));
    expect(await audits(id)).toHaveLength(2);
    await conforms(await call(mod(activityEvidenceApi), "GET", "/x", { token: other.token, params }), at, "get");
    const student = await caller(db, "student");
    await conforms(await call(mod(activityEvidenceApi), "GET", "/x", { token: student.token, params }), at, "get");
    expect((await call(mod(activityEvidencePage), "GET", "/x", { cookie: await sessionCookie(db, other.id), params })).status).toBe(404);
    expect(await audits(id)).toHaveLength(2);

    // once confirmed, the trainer cannot swap what was confirmed
    await call(mod(confirmApi), "POST", "/x", { token: admin.token, params });
    await conforms(
      await call(mod(activityEvidenceApi), "POST", "/x", {
        token: trainer.token,
        params,
        multipart: { files: [{ field: "evidence_file", name: "b.jpg", bytes: await gpsPhoto(90) }] },
      }),
      at,
      "post",
    );
  });
});
