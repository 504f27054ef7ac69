import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as assessments from "~/routes/api+/assessments";
import * as enrollment from "~/routes/api+/enrollments.$id";
import * as certificates from "~/routes/api+/certificates";
import * as revoke from "~/routes/api+/admin.certificates.$id.revoke";
import * as reissue from "~/routes/api+/admin.certificates.$id.reissue";
import * as verify from "~/routes/api+/verify.$code";
import { organisationToday } from "~/utils/organisation-calendar";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { bodyOf, call, caller, type Caller } from "../../tests/support/api-calls";
import { assessmentResponse, certificateResponse, trainerEnrollmentResponse } from "./schemas";

/**
 * The trainer's workflow over /api: the same models and rules as the trainer's forms, from an
 * assessment to a certificate, and the administrator's revoke and reissue.
 */

let db: DB;
let cleanup: () => Promise<void>;
let student: Caller;
let trainer: Caller;
let admin: Caller;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  student = await caller(db, "student");
  trainer = await caller(db, "trainer");
  admin = await caller(db, "admin");
});
afterAll(async () => cleanup());

async function freshEnrollment(options: { usiVerified?: boolean } = {}) {
  const s = await makeUser(db, { role: "student", usi_verified: options.usiVerified ?? true });
  const course = await makeCourse(db);
  const e = await makeEnrollment(db, s.id, course.id, { status: "in_progress", progress: 40, enrollment_date: "2026-01-05T00:00:00.000Z" });
  return { studentId: s.id, enrollmentId: e.id };
}

const passed = (enrollmentId: string) => ({
  enrollment_id: enrollmentId,
  assessment_type: "Practical",
  status: "passed",
  score: 45,
  max_score: 50,
  assessment_date: organisationToday(),
  feedback: "Competent",
});

async function counts() {
  const [a, c] = await Promise.all([
    db
      .selectFrom("assessments")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("certificates")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { assessments: Number(a.n), certificates: Number(c.n) };
}

describe("the trainer's workflow over /api", () => {
  it("a result needs a status (none assumed) and a date not in the future, and settles the open assessment of its kind", async () => {
    const { enrollmentId } = await freshEnrollment();
    const before = await counts();
    const { status: _status, ...noStatus } = passed(enrollmentId);
    const missing = await call(assessments, "POST", "/api/assessments", { token: trainer.token, json: noStatus });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(await bodyOf(missing))).toContain("Choose the status");
    const tomorrow = new Date(Date.now() + 2 * 86_400_000);
    const future = await call(assessments, "POST", "/api/assessments", {
      token: trainer.token,
      json: { ...passed(enrollmentId), assessment_date: organisationToday(tomorrow) },
    });
    expect(future.status).toBe(422);
    expect(JSON.stringify(await bodyOf(future))).toContain("cannot be in the future");
    expect(await counts()).toEqual(before);

    const open = await call(assessments, "POST", "/api/assessments", {
      token: trainer.token,
      json: { ...passed(enrollmentId), status: "in_progress", score: null, max_score: null },
    });
    expect(open.status).toBe(201);
    const result = await call(assessments, "POST", "/api/assessments", { token: trainer.token, json: passed(enrollmentId) });
    expect(result.status).toBe(201);
    const rows = await db.selectFrom("assessments").select(["status", "score"]).where("enrollment_id", "=", enrollmentId).execute();
    expect(rows).toEqual([{ status: "passed", score: 45 }]);
  });

  it("records a passed assessment, completes the enrolment and issues exactly one certificate", async () => {
    const { enrollmentId } = await freshEnrollment();
    const recorded = await call(assessments, "POST", "/api/assessments", { token: trainer.token, json: passed(enrollmentId) });
    expect(recorded.status).toBe(201);
    const assessment = await bodyOf(recorded);
    expect(assessmentResponse.safeParse(assessment).success).toBe(true);
    expect(assessment).toMatchObject({ enrollment_id: enrollmentId, status: "passed", score: 45, max_score: 50, assessor: { id: trainer.id } });

    // progress alone; then complete (progress becomes 100)
    const moved = await call(enrollment, "PUT", `/api/enrollments/${enrollmentId}`, {
      token: trainer.token,
      json: { progress_percentage: 80 },
      params: { id: enrollmentId },
    });
    expect(moved.status).toBe(200);
    expect(await bodyOf(moved)).toMatchObject({ status: "in_progress", progress_percentage: 80 });
    const completed = await call(enrollment, "PUT", `/api/enrollments/${enrollmentId}`, {
      token: trainer.token,
      json: { status: "completed" },
      params: { id: enrollmentId },
    });
    expect(completed.status).toBe(200);
    const detail = await bodyOf<{ status: string; progress_percentage: number; certificate: { id: string; certificate_number: string } | null }>(completed);
    expect(trainerEnrollmentResponse.safeParse(detail).success).toBe(true);
    expect(detail).toMatchObject({ status: "completed", progress_percentage: 100 });
    // completing with a verified USI issued the certificate; issuing again is a 409 naming it
    expect(detail.certificate).not.toBeNull();
    const before = await counts();
    const again = await call(certificates, "POST", "/api/certificates", { token: trainer.token, json: { enrollment_id: enrollmentId } });
    expect(again.status).toBe(409);
    expect((await bodyOf(again)).detail).toContain(detail.certificate!.certificate_number);
    expect(await counts()).toEqual(before);
  });

  it("takes a result dated back to the planned start (training entered after the fact), and says when a date is before it", async () => {
    const { enrollmentId } = await freshEnrollment();
    // trained in December; the portal's record was made on 5 January
    await db.updateTable("enrollments").set({ planned_start_date: "2025-12-01", planned_end_date: "2025-12-05" }).where("id", "=", enrollmentId).execute();
    const early = await call(assessments, "POST", "/api/assessments", {
      token: trainer.token,
      json: { ...passed(enrollmentId), assessment_date: "2025-11-28" },
    });
    expect(early.status).toBe(422);
    expect(await bodyOf(early)).toMatchObject({ detail: "Assessment date cannot be before the training began (2025-12-01)" });
    const onTime = await call(assessments, "POST", "/api/assessments", {
      token: trainer.token,
      json: { ...passed(enrollmentId), assessment_date: "2025-12-05" },
    });
    expect(onTime.status).toBe(201);
  });

  it("issues over POST /api/certificates only to a verified USI (409) and only when completed (422)", async () => {
    const waiting = await freshEnrollment({ usiVerified: false });
    await db
      .updateTable("enrollments")
      .set({ status: "completed", progress_percentage: 100, completion_date: new Date().toISOString() })
      .where("id", "=", waiting.enrollmentId)
      .execute();
    const refused = await call(certificates, "POST", "/api/certificates", { token: trainer.token, json: { enrollment_id: waiting.enrollmentId } });
    expect(refused.status).toBe(409);
    expect(await bodyOf(refused)).toEqual({ detail: "USI not verified" });

    const unfinished = await freshEnrollment();
    const early = await call(certificates, "POST", "/api/certificates", { token: admin.token, json: { enrollment_id: unfinished.enrollmentId } });
    expect(early.status).toBe(422);

    await db.updateTable("users").set({ usi_verified_at: new Date().toISOString() }).where("id", "=", waiting.studentId).execute();
    const issued = await call(certificates, "POST", "/api/certificates", { token: trainer.token, json: { enrollment_id: waiting.enrollmentId } });
    expect(issued.status).toBe(201);
    const certificate = await bodyOf<{ id: string; verification_code: string; status: string }>(issued);
    expect(certificateResponse.safeParse(certificate).success).toBe(true);
    expect(certificate.status).toBe("valid");
    expect(certificate.verification_code).toMatch(/^[0-9A-Z]{16,}$/);
  });

  it("lets an admin revoke with a reason and reissue; refuses twice, and keeps every record", async () => {
    const { studentId, enrollmentId } = await freshEnrollment();
    await db
      .updateTable("enrollments")
      .set({ status: "completed", progress_percentage: 100, completion_date: new Date().toISOString() })
      .where("id", "=", enrollmentId)
      .execute();
    const first = await bodyOf<{ id: string; certificate_number: string; verification_code: string }>(
      await call(certificates, "POST", "/api/certificates", { token: trainer.token, json: { enrollment_id: enrollmentId } }),
    );

    // a trainer may not reissue or revoke; an empty reason is refused
    expect((await call(reissue, "POST", "/x", { token: trainer.token, params: { id: first.id } })).status).toBe(403);
    expect((await call(revoke, "POST", "/x", { token: trainer.token, json: { reason: "x" }, params: { id: first.id } })).status).toBe(403);
    expect((await call(revoke, "POST", "/x", { token: admin.token, json: { reason: "  " }, params: { id: first.id } })).status).toBe(422);
    expect((await call(reissue, "POST", "/x", { token: admin.token, json: { reason: "no" }, params: { id: first.id } })).status).toBe(422);

    const reissued = await call(reissue, "POST", "/x", { token: admin.token, params: { id: first.id } });
    expect(reissued.status).toBe(201);
    const second = await bodyOf<{ id: string; certificate_number: string; verification_code: string }>(reissued);
    expect(second.certificate_number).not.toBe(first.certificate_number);
    expect(await bodyOf(await call(verify, "GET", "/x", { params: { code: first.verification_code } }))).toMatchObject({
      status: "replaced",
      replaced_by: second.certificate_number,
    });
    expect((await call(reissue, "POST", "/x", { token: admin.token, params: { id: first.id } })).status).toBe(409);

    const revoked = await call(revoke, "POST", "/x", { token: admin.token, json: { reason: "Issued in error" }, params: { id: second.id } });
    expect(revoked.status).toBe(200);
    expect(await bodyOf(revoked)).toMatchObject({ id: second.id, status: "revoked" });
    const before = await db.selectFrom("certificates").selectAll().where("student_id", "=", studentId).orderBy("certificate_number").execute();
    expect((await call(revoke, "POST", "/x", { token: admin.token, json: { reason: "again" }, params: { id: second.id } })).status).toBe(409);
    expect((await call(reissue, "POST", "/x", { token: admin.token, params: { id: second.id } })).status).toBe(409);
    expect(await db.selectFrom("certificates").selectAll().where("student_id", "=", studentId).orderBy("certificate_number").execute()).toEqual(before);
    expect(before).toHaveLength(2);
    const publicAnswer = await bodyOf(await call(verify, "GET", "/x", { params: { code: second.verification_code } }));
    expect(publicAnswer).toMatchObject({ status: "revoked" });
    expect(JSON.stringify(publicAnswer)).not.toContain("Issued in error");
  });

  it("keeps students and visitors out, and answers bad input with a 4xx that changes nothing", async () => {
    const { enrollmentId } = await freshEnrollment();
    const before = await counts();
    for (const token of [null, student.token]) {
      const expected = token ? 403 : 401;
      expect((await call(assessments, "POST", "/x", { token, json: passed(enrollmentId) })).status).toBe(expected);
      expect((await call(enrollment, "PUT", "/x", { token, json: { status: "completed" }, params: { id: enrollmentId } })).status).toBe(expected);
      expect((await call(certificates, "POST", "/x", { token, json: { enrollment_id: enrollmentId } })).status).toBe(expected);
    }
    const bad: Array<[typeof assessments | typeof enrollment, string, unknown, Record<string, string>, number]> = [
      [assessments, "POST", { ...passed(enrollmentId), score: 60 }, {}, 422],
      [assessments, "POST", { ...passed(enrollmentId), status: "failed", feedback: "" }, {}, 422],
      [assessments, "POST", { ...passed(enrollmentId), assessment_date: "2999-01-01" }, {}, 422],
      [assessments, "POST", { ...passed(enrollmentId), extra: 1 }, {}, 422],
      [assessments, "POST", { ...passed(crypto.randomUUID()) }, {}, 404],
      [enrollment, "PUT", { progress_percentage: 101 }, { id: enrollmentId }, 422],
      [enrollment, "PUT", { status: "finished" }, { id: enrollmentId }, 422],
      [enrollment, "PUT", { status: "enrolled", progress_percentage: 10 }, { id: enrollmentId }, 422],
      [enrollment, "PUT", { status: "completed" }, { id: enrollmentId }, 422], // no passed assessment yet
      [enrollment, "PUT", { status: "completed" }, { id: "not-a-uuid" }, 404],
      [certificates, "POST", { enrollment_id: "nope" }, {}, 422],
    ];
    for (const [mod, method, json, params, status] of bad) {
      const response = await call(mod, method, "/x", { token: trainer.token, json, params });
      expect({ json, status: response.status }).toEqual({ json, status });
      expect(typeof (await bodyOf(response)).detail).toBe("string");
    }
    expect(await counts()).toEqual(before);
    const row = await db.selectFrom("enrollments").select(["status", "progress_percentage"]).where("id", "=", enrollmentId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "in_progress", progress_percentage: 40 });
  });
});
