import crypto from "node:crypto";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import { isUniqueViolation } from "#db/dialect";
import type { Tier } from "#db/schema";
import { DomainError, notFound } from "~/utils/errors";
import { recordAudit } from "../audit.server";
import { getCertificateDocumentRecord } from "./certificate-document.server";
import { newVerificationCode, nextCertificateNumber } from "./certificate-number.server";
import { getCertificateByEnrollment, getIssuedCertificate, type IssuedCertificate } from "./certificate.server";
import { recordEvent } from "../event.server";
import { queueMail } from "../outbox.server";
import { USI_NOT_VERIFIED } from "../usi.server";
import { queueWebhookEvent } from "../webhook-events.server";
import { RECOGNITION_MESSAGES } from "~/schemas/recognition";
import { creditedOnly } from "../recognition/recognition.server";

/* Issuing a certificate (the trainer's side), and an administrator's revoking and reissuing. */

export const CERTIFICATE_NEEDS_COMPLETION = "Only a completed enrolment can be certified";

/**
 * The gate of the Student Identifiers Act: a statement of attainment only for a learner whose
 * USI (or exemption) has been verified. Throws 409 "USI not verified" otherwise.
 */
async function assertUsiVerified(db: DB, studentId: string): Promise<void> {
  const student = await db.selectFrom("users").select(["usi", "usi_verified_at"]).where("id", "=", studentId).executeTakeFirst();
  if (!student?.usi || !student.usi_verified_at) throw new DomainError(409, USI_NOT_VERIFIED);
}

/** Inserts one certificate row with a new number and verification code, its event, and the student's mail. */
async function insertCertificate(
  trx: WriteTransaction,
  input: {
    enrollment: { id: string; student_id: string; course_id: string; name: string; tier: Tier };
    actorId: string | null;
    client?: string | null;
    now: Date;
    replacesId?: string;
    replacesNumber?: string;
  },
): Promise<{ id: string; number: string }> {
  const id = crypto.randomUUID();
  const number = await nextCertificateNumber(trx, input.now);
  await trx
    .insertInto("certificates")
    .values({
      id,
      certificate_number: number,
      student_id: input.enrollment.student_id,
      course_id: input.enrollment.course_id,
      enrollment_id: input.enrollment.id,
      tier_achieved: input.enrollment.tier,
      issue_date: input.now.toISOString(),
      issued_by: input.actorId,
      created_at: input.now.toISOString(),
      verification_code: newVerificationCode(),
      replaces_id: input.replacesId ?? null,
    })
    .execute();
  await queueWebhookEvent(trx, { type: "certificate.issued", subjectId: id, now: input.now });
  await recordAudit(trx, {
    action: input.replacesId ? "certificate.reissued" : "certificate.issued",
    actor: { id: input.actorId, client: input.client },
    subject: { type: "certificate", id, userId: input.enrollment.student_id },
    detail: input.replacesId ? `${number} replaces ${input.replacesNumber ?? ""}`.trim() : number,
    now: input.now,
  });
  await recordEvent(trx, {
    actorId: input.actorId,
    subjectUserId: input.enrollment.student_id,
    type: input.replacesId ? "certificate.reissued" : "certificate.issued",
    entityType: "certificate",
    entityId: id,
    message: `Certificate ${number} issued for ${input.enrollment.name}`,
    now: input.now.toISOString(),
  });
  const record = (await getCertificateDocumentRecord(trx, id))!;
  await queueMail(trx, {
    key: `certificate-issued:${id}`,
    template: "certificate-issued",
    recipientId: input.enrollment.student_id,
    data: { certificateNumber: number, unit: `${record.unit_code} ${record.unit_title}`, verificationCode: record.verification_code },
    now: input.now,
  });
  return { id, number };
}

function enrollmentToCertify(db: DB, enrollmentId: string) {
  return db
    .selectFrom("enrollments")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select(["enrollments.id", "enrollments.student_id", "enrollments.status", "courses.id as course_id", "courses.name", "courses.tier"])
    .where("enrollments.id", "=", enrollmentId)
    .executeTakeFirst();
}

/**
 * Issues the certificate of a completed enrollment, exactly once, and only to a student whose
 * USI is verified (409 "USI not verified"); an enrolment not completed is a 422. The check and
 * the insert share one write transaction (BEGIN IMMEDIATE on SQLite, so two submits queue
 * rather than interleave), and the unique index on the enrolment's current certificate is the
 * last word: a racing insert that loses is answered with the certificate that won. The number
 * comes from the never-reused sequence, the verification code from 80 random bits; the tier
 * achieved is the course's tier. The event is about the student, so it appears in their
 * notifications. Joins the caller's transaction when there is one.
 */
export async function issueCertificate(
  db: DB,
  input: { enrollmentId: string; actorId: string | null; client?: string | null; now?: Date },
): Promise<{ certificate: IssuedCertificate; created: boolean }> {
  const now = input.now ?? new Date();
  try {
    return await writeTransaction(db, async (trx) => {
      const enrollment = await enrollmentToCertify(trx, input.enrollmentId);
      if (!enrollment) throw notFound("Enrolment");
      const existing = await getCertificateByEnrollment(trx, enrollment.id);
      if (existing) return { certificate: existing, created: false };
      if (enrollment.status !== "completed") throw new DomainError(422, CERTIFICATE_NEEDS_COMPLETION);
      // the learner's statement for a credited unit is the other RTO's: the portal issues none
      if (await creditedOnly(trx, enrollment.id)) throw new DomainError(409, RECOGNITION_MESSAGES.creditedNoCertificate);
      await assertUsiVerified(trx, enrollment.student_id);
      await insertCertificate(trx, { enrollment, actorId: input.actorId, client: input.client, now });
      return { certificate: (await getCertificateByEnrollment(trx, enrollment.id))!, created: true };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const existing = await getCertificateByEnrollment(db, input.enrollmentId);
      if (existing) return { certificate: existing, created: false };
    }
    throw error;
  }
}

export const CERTIFICATE_ALREADY_REVOKED = "This certificate is already revoked";
export const CERTIFICATE_REPLACED = "This certificate was replaced by a reissued one; act on the new certificate";
export const CERTIFICATE_REVOKED_NO_REISSUE = "A revoked certificate cannot be reissued";

function certificateForChange(db: DB, id: string) {
  return db
    .selectFrom("certificates")
    .innerJoin("courses", "courses.id", "certificates.course_id")
    .select([
      "certificates.id",
      "certificates.certificate_number",
      "certificates.student_id",
      "certificates.enrollment_id",
      "certificates.revoked_at",
      "certificates.replaced_at",
      "courses.id as course_id",
      "courses.name",
      "courses.tier",
    ])
    .where("certificates.id", "=", id)
    .executeTakeFirst();
}

/**
 * An administrator revokes a certificate, with a reason (kept, never shown publicly). The
 * record stays: verification answers "revoked" with the date. Revoking twice, or a replaced
 * certificate, is a 409 and changes nothing.
 */
export async function revokeCertificate(
  db: DB,
  input: { certificateId: string; reason: string; actorId: string; client?: string | null; now?: Date },
): Promise<IssuedCertificate> {
  const at = (input.now ?? new Date()).toISOString();
  return writeTransaction(db, async (trx) => {
    const current = await certificateForChange(trx, input.certificateId);
    if (!current) throw notFound("Certificate");
    if (current.replaced_at) throw new DomainError(409, CERTIFICATE_REPLACED);
    if (current.revoked_at) throw new DomainError(409, CERTIFICATE_ALREADY_REVOKED);
    await trx
      .updateTable("certificates")
      .set({ revoked_at: at, revoked_by: input.actorId, revocation_reason: input.reason })
      .where("id", "=", current.id)
      .where("revoked_at", "is", null)
      .execute();
    await queueWebhookEvent(trx, { type: "certificate.revoked", subjectId: current.id, now: at });
    await recordAudit(trx, {
      action: "certificate.revoked",
      actor: { id: input.actorId, client: input.client },
      subject: { type: "certificate", id: current.id, userId: current.student_id },
      detail: current.certificate_number,
      now: at,
    });
    await recordEvent(trx, {
      actorId: input.actorId,
      subjectUserId: current.student_id,
      type: "certificate.revoked",
      entityType: "certificate",
      entityId: current.id,
      message: `Certificate ${current.certificate_number} for ${current.name} was revoked`,
      now: at,
    });
    return (await getIssuedCertificate(trx, current.id))!;
  });
}

/**
 * An administrator reissues a certificate (a corrected name, a lost document): a new
 * certificate with a new number and verification code for the same enrolment; the old one is
 * kept and verifies as "replaced" with the new number. A revoked or already replaced
 * certificate is a 409; the USI gate applies as for any issue.
 */
export async function reissueCertificate(
  db: DB,
  input: { certificateId: string; actorId: string; client?: string | null; now?: Date },
): Promise<IssuedCertificate> {
  const now = input.now ?? new Date();
  return writeTransaction(db, async (trx) => {
    const old = await certificateForChange(trx, input.certificateId);
    if (!old) throw notFound("Certificate");
    if (old.replaced_at) throw new DomainError(409, CERTIFICATE_REPLACED);
    if (old.revoked_at) throw new DomainError(409, CERTIFICATE_REVOKED_NO_REISSUE);
    await assertUsiVerified(trx, old.student_id);
    // Mark the old one first: the enrolment has one current certificate at any moment.
    await trx.updateTable("certificates").set({ replaced_at: now.toISOString() }).where("id", "=", old.id).execute();
    const enrollment = { id: old.enrollment_id, student_id: old.student_id, course_id: old.course_id, name: old.name, tier: old.tier };
    const { id } = await insertCertificate(trx, {
      enrollment,
      actorId: input.actorId,
      client: input.client,
      now,
      replacesId: old.id,
      replacesNumber: old.certificate_number,
    });
    return (await getIssuedCertificate(trx, id))!;
  });
}
