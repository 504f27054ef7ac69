import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { makeCourse, makeEnrollment, makeUsi, makeUser } from "../../../tests/support/factories";
import { createTestDb } from "../../../tests/support/test-db";
import { normaliseVerificationCode } from "./certificate-number.server";
import { listCertificateHistory } from "./certificate.server";
import { listCompletedAwaitingCertificate } from "./certificate-due.server";
import {
  CERTIFICATE_ALREADY_REVOKED,
  CERTIFICATE_REPLACED,
  CERTIFICATE_REVOKED_NO_REISSUE,
  issueCertificate,
  reissueCertificate,
  revokeCertificate,
} from "./certificate-issue.server";
import { verifyCertificate } from "./certificate-verification.server";
import { updateEnrollmentProgress } from "../enrollment.server";
import { createStudent, getStudentDetail, searchStudents, updateStudent } from "../student.server";
import { registerUser, updateOwnProfile } from "../user.server";
import { ownRecord } from "../personal-data.server";
import { recordUsiVerification, USI_EXEMPTION_NEEDS_ADMIN, USI_NOT_VERIFIED, USI_TAKEN } from "../usi.server";

const DAY = 864e5;
let db: DB;
let cleanup: () => Promise<void>;
let trainer: { id: string; role: "trainer" };
let admin: { id: string; role: "admin" };

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  trainer = { id: (await makeUser(db, { role: "trainer" })).id, role: "trainer" };
  admin = { id: (await makeUser(db, { role: "admin" })).id, role: "admin" };
});
afterAll(() => cleanup());

async function completed(options: { usi?: string | null; verified?: boolean; completedDaysAgo?: number | null; name?: string } = {}) {
  const student = await makeUser(db, { full_name: options.name ?? "Riley Learner", usi: options.usi, usi_verified: options.verified });
  const course = await makeCourse(db, { name: `Dogging ${student.id.slice(0, 4)}`, unit_code: "CPCCLDG3001" });
  const days = options.completedDaysAgo === undefined ? 2 : options.completedDaysAgo;
  const e = await makeEnrollment(db, student.id, course.id, {
    status: "completed",
    progress: 100,
    completion_date: days === null ? null : new Date(Date.now() - days * DAY).toISOString(),
  });
  return { studentId: student.id, enrollmentId: e.id };
}

const rowsOf = (table: "certificates" | "users", column: "enrollment_id" | "id", value: string) =>
  db.selectFrom(table).selectAll().where(column, "=", value).execute();

describe("the USI gate", () => {
  it("refuses to issue without a USI or with an unverified one, and changes nothing", async () => {
    for (const [usi, verified] of [
      [null, true],
      [makeUsi(), false],
    ] as const) {
      const { enrollmentId } = await completed({ usi, verified });
      await expect(issueCertificate(db, { enrollmentId, actorId: trainer.id })).rejects.toMatchObject({ status: 409, message: USI_NOT_VERIFIED });
      expect(await rowsOf("certificates", "enrollment_id", enrollmentId)).toHaveLength(0);
    }
  });

  it("issues once the USI is verified, with an unguessable verification code", async () => {
    const { studentId, enrollmentId } = await completed({ verified: false });
    await recordUsiVerification(db, { studentId, actor: trainer });
    const { certificate, created } = await issueCertificate(db, { enrollmentId, actorId: trainer.id });
    expect(created).toBe(true);
    expect(certificate.status).toBe("valid");
    expect(certificate.verification_code).toMatch(/^[2-9A-HJ-NP-Z]{16}$/);
    expect(normaliseVerificationCode(certificate.verification_code.toLowerCase())).toBe(certificate.verification_code);
  });

  it("completing an enrolment of an unverified student completes it and leaves the certificate awaiting the USI", async () => {
    const student = await makeUser(db, { usi_verified: false });
    const course = await makeCourse(db);
    const e = await makeEnrollment(db, student.id, course.id, {
      status: "in_progress",
      progress: 80,
      enrollment_date: new Date(Date.now() - 10 * DAY).toISOString(),
    });
    await db
      .insertInto("assessments")
      .values({
        id: crypto.randomUUID(),
        enrollment_id: e.id,
        student_id: student.id,
        course_id: course.id,
        assessment_type: "Practical",
        status: "passed",
        score: 90,
        max_score: 100,
        assessment_date: new Date(Date.now() - DAY).toISOString(),
        feedback: null,
        assessed_by: trainer.id,
        created_at: new Date().toISOString(),
      })
      .execute();
    const result = await updateEnrollmentProgress(db, { enrollmentId: e.id, progress: 100, status: "completed", actorId: trainer.id });
    expect(result).toMatchObject({ changed: true, issuedCertificate: null, awaitingUsi: true });
    expect(result.enrollment.status).toBe("completed");
    const awaiting = await listCompletedAwaitingCertificate(db, { usi: "awaiting" });
    expect(awaiting.find((a) => a.enrollment_id === e.id)?.student.usi_status).toBe("not_verified");
    expect((await listCompletedAwaitingCertificate(db, { usi: "ready" })).map((a) => a.enrollment_id)).not.toContain(e.id);
  });
});

describe("USI records", () => {
  it("keeps one USI per person (exemption codes shared) and clears the verification when the USI changes", async () => {
    const usi = makeUsi();
    const a = await makeUser(db, { usi, usi_verified: true });
    const b = await makeUser(db, { usi: null });
    // someone else's USI on your own profile is not refused (that would tell who holds it): it is kept aside for the office
    const seen = await updateOwnProfile(db, b.id, { phone: null, address: null, emergency_contact: null, usi });
    expect(ownRecord(seen)).toMatchObject({ usi, usi_verified_at: null, usi_claimed: null });
    expect((await rowsOf("users", "id", b.id))[0]).toMatchObject({ usi: null, usi_claimed: usi });
    expect((await rowsOf("users", "id", a.id))[0]).toMatchObject({ usi });
    await updateOwnProfile(db, a.id, { phone: null, address: null, emergency_contact: null, usi: "INDIV" });
    await updateOwnProfile(db, b.id, { phone: null, address: null, emergency_contact: null, usi: "INDIV" });
    const [rowA] = await rowsOf("users", "id", a.id);
    expect(rowA).toMatchObject({ usi: "INDIV", usi_verified_at: null, usi_verified_by: null });
    // left out, the USI stays as it is
    await updateOwnProfile(db, a.id, { phone: "0400 000 001", address: null, emergency_contact: null });
    expect((await rowsOf("users", "id", a.id))[0]!.usi).toBe("INDIV");
  });

  it("records who verified and when; an exemption needs an administrator", async () => {
    const s = await makeUser(db, { usi: "INTOFF", usi_verified: false });
    await expect(recordUsiVerification(db, { studentId: s.id, actor: trainer })).rejects.toMatchObject({ status: 403, message: USI_EXEMPTION_NEEDS_ADMIN });
    const now = new Date("2026-11-20T03:00:00.000Z");
    await recordUsiVerification(db, { studentId: s.id, actor: admin, now });
    expect((await rowsOf("users", "id", s.id))[0]).toMatchObject({ usi_verified_at: now.toISOString(), usi_verified_by: admin.id });
    await expect(recordUsiVerification(db, { studentId: s.id, actor: admin })).rejects.toMatchObject({ status: 409 });
  });

  it("an administrator's edit sets the USI and records the verification in one go; a taken USI changes nothing", async () => {
    const s = await makeUser(db, { usi: null });
    const usi = makeUsi();
    const updated = await updateStudent(db, s.id, { usi, usi_verified: true }, admin.id);
    expect(updated.usi).toBe(usi);
    expect(updated.usi_verified_at).not.toBeNull();
    const other = await createStudent(
      db,
      {
        full_name: "Other Person",
        email: `o-${s.id.slice(0, 6)}@test.example`,
        password: "Rigging-Kestrel-42",
        phone: null,
        address: null,
        date_of_birth: null,
        emergency_contact: null,
        license_number: null,
        is_active: true,
        usi: null,
      },
      admin.id,
    );
    await expect(updateStudent(db, other.id, { usi, full_name: "Renamed" }, admin.id)).rejects.toMatchObject({ status: 409, message: USI_TAKEN });
    expect((await rowsOf("users", "id", other.id))[0]).toMatchObject({ usi: null, full_name: "Other Person" });
  });

  it("a registration with someone else's USI is accepted like any other and the clash kept for the office, which settles it", async () => {
    const usi = makeUsi();
    const holder = await makeUser(db, { usi, usi_verified: true });
    const email = `claimer-${holder.id.slice(0, 8)}@test.example`;
    const { user } = await registerUser(db, {
      full_name: "Claire Claimer",
      email,
      password: "Rigging-Kestrel-42",
      role: "student",
      phone: null,
      address: null,
      date_of_birth: null,
      emergency_contact: null,
      usi,
    });
    expect(user).toMatchObject({ usi: null, usi_claimed: usi });
    expect((await rowsOf("users", "id", holder.id))[0]).toMatchObject({ usi });
    // the office finds it: on the students list's check and on the learner's profile, with who holds the USI
    expect((await searchStudents(db, { issue: "usi-clash", pageSize: 100 })).students.map((s) => s.id)).toContain(user.id);
    expect((await getStudentDetail(db, user.id))!.usi_held_by).toMatchObject({ id: holder.id });
    // the office gives the learner their real USI: the clash is settled
    const real = makeUsi();
    expect(await updateStudent(db, user.id, { usi: real }, admin.id)).toMatchObject({ usi: real, usi_claimed: null });
  });
});

describe("the 30-day clock", () => {
  it("lists awaiting certificates overdue first, with completion + 30 days as the due date", async () => {
    const now = new Date();
    const fresh = await completed({ completedDaysAgo: 3 });
    const late = await completed({ completedDaysAgo: 45 });
    const undated = await completed({ completedDaysAgo: null });
    const list = (await listCompletedAwaitingCertificate(db, { now, limit: 500 })).filter((a) =>
      [fresh, late, undated].some((x) => x.enrollmentId === a.enrollment_id),
    );
    expect(list.map((a) => a.enrollment_id)).toEqual([undated.enrollmentId, late.enrollmentId, fresh.enrollmentId]);
    expect(list.map((a) => a.overdue)).toEqual([true, true, false]);
    const freshItem = list[2]!;
    expect(new Date(freshItem.due_date!).getTime() - new Date(freshItem.completion_date!).getTime()).toBe(30 * DAY);
    expect(list[1]!.due_date! < now.toISOString()).toBe(true);
  });
});

describe("revoke and reissue", () => {
  it("revokes once with a reason, keeps the record, and verifies as revoked without the reason", async () => {
    const { enrollmentId, studentId } = await completed({ name: "Sam Revoked" });
    const { certificate } = await issueCertificate(db, { enrollmentId, actorId: trainer.id });
    const at = new Date("2026-11-21T00:00:00.000Z");
    const revoked = await revokeCertificate(db, { certificateId: certificate.id, reason: "Assessment evidence was falsified", actorId: admin.id, now: at });
    expect(revoked.status).toBe("revoked");
    await expect(revokeCertificate(db, { certificateId: certificate.id, reason: "again", actorId: admin.id })).rejects.toMatchObject({
      status: 409,
      message: CERTIFICATE_ALREADY_REVOKED,
    });
    await expect(reissueCertificate(db, { certificateId: certificate.id, actorId: admin.id })).rejects.toMatchObject({
      status: 409,
      message: CERTIFICATE_REVOKED_NO_REISSUE,
    });
    const verification = await verifyCertificate(db, certificate.verification_code);
    expect(verification).toMatchObject({ status: "revoked", revoked_at: at.toISOString(), learner_name: "Sam Revoked" });
    expect(JSON.stringify(verification)).not.toContain("falsified");
    const history = await listCertificateHistory(db, studentId);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ status: "revoked", revocation_reason: "Assessment evidence was falsified" });
    // the enrolment keeps its (revoked) certificate: issuing again creates nothing
    expect((await issueCertificate(db, { enrollmentId, actorId: trainer.id })).created).toBe(false);
  });

  it("reissues with a new number and code; the old one verifies as replaced by the new number", async () => {
    const { enrollmentId, studentId } = await completed();
    const { certificate: old } = await issueCertificate(db, { enrollmentId, actorId: trainer.id });
    const fresh = await reissueCertificate(db, { certificateId: old.id, actorId: admin.id });
    expect(fresh.certificate_number).not.toBe(old.certificate_number);
    expect(fresh.verification_code).not.toBe(old.verification_code);
    expect(fresh.enrollment_id).toBe(enrollmentId);
    expect(await verifyCertificate(db, old.verification_code)).toMatchObject({ status: "replaced", replaced_by: fresh.certificate_number });
    expect(await verifyCertificate(db, fresh.verification_code)).toMatchObject({ status: "valid", replaced_by: null, revoked_at: null });
    await expect(reissueCertificate(db, { certificateId: old.id, actorId: admin.id })).rejects.toMatchObject({ status: 409, message: CERTIFICATE_REPLACED });
    await expect(revokeCertificate(db, { certificateId: old.id, reason: "x", actorId: admin.id })).rejects.toMatchObject({
      status: 409,
      message: CERTIFICATE_REPLACED,
    });
    const history = await listCertificateHistory(db, studentId);
    expect(history.map((h) => h.status).sort()).toEqual(["replaced", "valid"]);
    expect(history.find((h) => h.id === fresh.id)?.replaces_number).toBe(old.certificate_number);
    expect(await rowsOf("certificates", "enrollment_id", enrollmentId)).toHaveLength(2);
  });

  it("reissuing is gated by the USI too, and an unknown certificate is a 404", async () => {
    const { enrollmentId, studentId } = await completed();
    const { certificate } = await issueCertificate(db, { enrollmentId, actorId: trainer.id });
    await updateStudent(db, studentId, { usi: makeUsi() }, admin.id);
    await expect(reissueCertificate(db, { certificateId: certificate.id, actorId: admin.id })).rejects.toMatchObject({
      status: 409,
      message: USI_NOT_VERIFIED,
    });
    expect(await rowsOf("certificates", "enrollment_id", enrollmentId)).toHaveLength(1);
    await expect(revokeCertificate(db, { certificateId: crypto.randomUUID(), reason: "x", actorId: admin.id })).rejects.toMatchObject({ status: 404 });
  });

  it("verifies nothing for unknown or malformed codes", async () => {
    expect(await verifyCertificate(db, "ABCDEFGHJKLMNPQR")).toBeNull();
    expect(normaliseVerificationCode("ABCD-EFGH-JKLM-NPQ")).toBeNull();
    expect(normaliseVerificationCode("abcd-efgh-jkmn-pqr0")).toBeNull();
    expect(normaliseVerificationCode(" abcd efgh-jkmn-pqrs ")).toBe("ABCDEFGHJKMNPQRS");
  });
});
