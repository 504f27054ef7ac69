import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { makeCourse, makeEnrollment, makeUser, makeUsi } from "../../tests/support/factories";
import { createTestDb } from "../../tests/support/test-db";
import { usiCheckFor } from "./personal-data.server";
import { usiVerifiedMessage, verifyUsiAndIssue } from "./usi-verification.server";
import { createStudent, updateStudent } from "./student.server";
import { registerUser, updateOwnProfile } from "./user.server";
import { issueCertificate } from "./certificates/certificate-issue.server";
import { USI_NOT_VERIFIED } from "./usi.server";
import { studentCreateSchema } from "~/schemas/student";
import { registrationSchema } from "~/schemas/auth";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

describe("verifying a USI", () => {
  it("issues at once, in the same step, the certificates the learner's completed enrolments waited for", async () => {
    const trainer = await makeUser(db, { role: "trainer" });
    const student = await makeUser(db, { usi_verified: false, full_name: "Robin Usi" });
    const done1 = await makeEnrollment(db, student.id, (await makeCourse(db)).id, {
      status: "completed",
      progress: 100,
      completion_date: "2026-09-01T00:00:00.000Z",
    });
    const done2 = await makeEnrollment(db, student.id, (await makeCourse(db)).id, {
      status: "completed",
      progress: 100,
      completion_date: "2026-10-01T00:00:00.000Z",
    });
    const current = await makeEnrollment(db, student.id, (await makeCourse(db)).id, { status: "in_progress", progress: 40 });

    const result = await verifyUsiAndIssue(db, { studentId: student.id, actor: { id: trainer.id, role: "trainer", client: "203.0.113.5" } });
    expect(result.issued).toHaveLength(2);
    const certificates = await db
      .selectFrom("certificates")
      .select(["enrollment_id", "certificate_number", "issued_by"])
      .where("student_id", "=", student.id)
      .execute();
    expect(new Set(certificates.map((c) => c.enrollment_id))).toEqual(new Set([done1.id, done2.id]));
    expect(certificates.every((c) => c.issued_by === trainer.id)).toBe(true);
    expect(certificates.map((c) => c.enrollment_id)).not.toContain(current.id);
    const audit = await db.selectFrom("audit_log").select("action").where("subject_user_id", "=", student.id).orderBy("id").execute();
    expect(audit.map((a) => a.action)).toEqual(["usi.verified", "certificate.issued", "certificate.issued"]);
    expect(usiVerifiedMessage("Robin Usi", result.issued)).toBe(`USI of Robin Usi recorded as verified; certificates ${result.issued.join(", ")} issued`);
  });

  it("issues nothing and records nothing when the verification is refused (already verified)", async () => {
    const trainer = await makeUser(db, { role: "trainer" });
    const student = await makeUser(db);
    await makeEnrollment(db, student.id, (await makeCourse(db)).id, { status: "completed", progress: 100, completion_date: "2026-09-01T00:00:00.000Z" });
    await expect(verifyUsiAndIssue(db, { studentId: student.id, actor: { id: trainer.id, role: "trainer" } })).rejects.toMatchObject({ status: 409 });
    expect(await db.selectFrom("certificates").select("id").where("student_id", "=", student.id).execute()).toEqual([]);
    expect(usiVerifiedMessage("Pat", [])).toBe("USI of Pat recorded as verified");
  });

  it("the check page reads the USI and date of birth, audited with the fields read", async () => {
    const trainer = await makeUser(db, { role: "trainer" });
    const student = await makeUser(db, { usi_verified: false });
    await db.updateTable("users").set({ date_of_birth: "1990-04-12" }).where("id", "=", student.id).execute();
    const seen = await usiCheckFor(db, { studentId: student.id, viewer: { id: trainer.id, client: null } });
    expect(seen).toMatchObject({ id: student.id, date_of_birth: "1990-04-12", usi_verified_at: null });
    expect(seen!.usi).toMatch(/^[A-Z0-9]{10}$/);
    const entry = await db.selectFrom("audit_log").select(["action", "actor_id", "fields"]).where("subject_user_id", "=", student.id).executeTakeFirstOrThrow();
    expect(entry).toEqual({ action: "usi.viewed", actor_id: trainer.id, fields: "date_of_birth,usi" });
    expect(await usiCheckFor(db, { studentId: trainer.id, viewer: { id: trainer.id, client: null } })).toBeNull();
  });
});

describe("an exemption code", () => {
  const completed = { status: "completed" as const, progress: 100, completion_date: "2026-09-01T00:00:00.000Z" };

  it("recorded by an administrator counts as verified at once, audited, and lets the waiting certificate issue", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const student = await makeUser(db, { usi_verified: false });
    const waiting = await makeEnrollment(db, student.id, (await makeCourse(db)).id, completed);

    const updated = await updateStudent(db, student.id, { usi: "INDIV" }, admin.id);
    expect(updated).toMatchObject({ usi: "INDIV", usi_verified_at: expect.any(String) });
    const row = await db.selectFrom("users").select(["usi_verified_by"]).where("id", "=", student.id).executeTakeFirstOrThrow();
    expect(row.usi_verified_by).toBe(admin.id);
    const audit = await db.selectFrom("audit_log").select(["action", "actor_id"]).where("subject_user_id", "=", student.id).orderBy("id").execute();
    expect(audit).toContainEqual({ action: "usi.verified", actor_id: admin.id });
    // verified, the certificate that waited for it was issued in the same step
    const certificate = await db.selectFrom("certificates").select("enrollment_id").where("student_id", "=", student.id).executeTakeFirst();
    expect(certificate?.enrollment_id).toBe(waiting.id);
  });

  it("given as the USI of a student the office creates counts as verified", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const input = studentCreateSchema.parse({
      full_name: "Exempt Learner",
      email: "exempt.learner@test.example",
      password: "Rigging-Kestrel-42",
      usi: "intoff",
      is_active: true,
    });
    const student = await createStudent(db, input, admin.id);
    expect(student).toMatchObject({ usi: "INTOFF", usi_verified_at: expect.any(String) });
  });

  it("that a learner enters themselves is not verified, and no certificate issues for it", async () => {
    const student = await makeUser(db, { usi_verified: false });
    const waiting = await makeEnrollment(db, student.id, (await makeCourse(db)).id, completed);
    const own = await updateOwnProfile(db, student.id, { phone: null, address: null, emergency_contact: null, usi: "INDIV" });
    expect(own).toMatchObject({ usi: "INDIV", usi_verified_at: null });
    await expect(issueCertificate(db, { enrollmentId: waiting.id, actorId: null })).rejects.toMatchObject({ status: 409, message: USI_NOT_VERIFIED });

    const registration = registrationSchema.parse({
      full_name: "Self Exempt",
      email: "self.exempt@test.example",
      password: "Rigging-Kestrel-42",
      usi: "indiv",
    });
    const { user } = await registerUser(db, registration);
    expect(user).toMatchObject({ usi: "INDIV", usi_verified_at: null });
  });

  it("an administrator's ordinary USI still waits for its check with the Registry", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const student = await makeUser(db, { usi: "INDIV", usi_verified: true });
    const updated = await updateStudent(db, student.id, { usi: makeUsi() }, admin.id);
    expect(updated.usi_verified_at).toBeNull();
  });
});
