import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import type { Role, Tier } from "#db/schema";
import { DomainError, notFound } from "~/utils/errors";
import { nextCertificateNumber } from "./certificate-number.server";
import { recordEvent } from "./event.server";

/** A certificate as the portals and /api show it (spec section 3, plus its course). */
export interface CertificateSummary {
  id: string;
  certificate_number: string;
  tier_achieved: Tier;
  issue_date: string;
  course: { id: string; name: string; unit_code: string };
}

function certificateQuery(db: DB) {
  return db
    .selectFrom("certificates")
    .innerJoin("courses", "courses.id", "certificates.course_id")
    .select([
      "certificates.id",
      "certificates.certificate_number",
      "certificates.tier_achieved",
      "certificates.issue_date",
      "certificates.student_id",
      "courses.id as course_id",
      "courses.name as course_name",
      "courses.unit_code",
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof certificateQuery>["execute"]>>[number];

function toSummary(r: Row): CertificateSummary {
  return {
    id: r.id,
    certificate_number: r.certificate_number,
    tier_achieved: r.tier_achieved,
    issue_date: r.issue_date,
    course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code },
  };
}

/** A student's certificates, newest first; `limit` for dashboards. */
export async function listCertificatesForStudent(
  db: DB,
  studentId: string,
  options: { limit?: number } = {},
): Promise<CertificateSummary[]> {
  let query = certificateQuery(db)
    .where("certificates.student_id", "=", studentId)
    .orderBy("certificates.issue_date", "desc")
    .orderBy("certificates.id");
  if (options.limit) query = query.limit(options.limit);
  return (await query.execute()).map(toSummary);
}

/**
 * One certificate as a given viewer may see it: its owner, any trainer or admin. Anyone else
 * gets null, exactly as for an unknown id, so ids cannot be probed.
 */
export async function getCertificateForViewer(
  db: DB,
  id: string,
  viewer: { id: string; role: Role },
): Promise<(CertificateSummary & { student_id: string }) | null> {
  let query = certificateQuery(db).where("certificates.id", "=", id);
  if (viewer.role === "student") query = query.where("certificates.student_id", "=", viewer.id);
  const row = await query.executeTakeFirst();
  return row ? { ...toSummary(row), student_id: row.student_id } : null;
}

export async function countCertificatesForStudent(db: DB, studentId: string): Promise<number> {
  const row = await db
    .selectFrom("certificates")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("student_id", "=", studentId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a certificate's document prints: never the student's id. */
export interface CertificateDocumentRecord {
  id: string;
  certificate_number: string;
  tier_achieved: Tier;
  issue_date: string;
  learner_full_name: string;
  course_name: string;
  unit_code: string;
}

/**
 * Everything the certificate document needs, by certificate id. No access rule here: callers
 * first check the viewer with getCertificateForViewer (or are the issuing code itself).
 */
export async function getCertificateDocumentRecord(db: DB, id: string): Promise<CertificateDocumentRecord | null> {
  const row = await documentRecordQuery(db).where("certificates.id", "=", id).executeTakeFirst();
  return row ?? null;
}

/** A certificate's PDF as stored, with the version it was rendered for. */
export interface StoredCertificateDocument {
  template_version: string;
  pdf: Buffer;
  byte_length: number;
  rendered_at: string;
}

/**
 * The document record and the stored PDF (null when none is stored yet) in one query: a
 * download reads both every time. Null for an unknown certificate.
 */
export async function getCertificateDocumentWithStored(
  db: DB,
  id: string,
): Promise<{ record: CertificateDocumentRecord; stored: StoredCertificateDocument | null } | null> {
  const row = await documentRecordQuery(db)
    .leftJoin("certificate_documents as d", "d.certificate_id", "certificates.id")
    .select(["d.template_version", "d.pdf", "d.byte_length", "d.rendered_at"])
    .where("certificates.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const { template_version, pdf, byte_length, rendered_at, ...record } = row;
  const stored = template_version !== null && pdf !== null && byte_length !== null && rendered_at !== null;
  return { record, stored: stored ? { template_version, pdf, byte_length, rendered_at } : null };
}

function documentRecordQuery(db: DB) {
  return db
    .selectFrom("certificates")
    .innerJoin("courses", "courses.id", "certificates.course_id")
    .innerJoin("users", "users.id", "certificates.student_id")
    .select([
      "certificates.id",
      "certificates.certificate_number",
      "certificates.tier_achieved",
      "certificates.issue_date",
      "users.full_name as learner_full_name",
      "courses.name as course_name",
      "courses.unit_code",
    ]);
}

// ---------------------------------------------------------------------------------------------
// Issuing (the trainer's side).
// ---------------------------------------------------------------------------------------------

/** A certificate as the trainer's lists show it: with its student. */
export interface IssuedCertificate extends CertificateSummary {
  enrollment_id: string;
  student: { id: string; full_name: string; email: string };
}

function issuedCertificateQuery(db: DB) {
  return certificateQuery(db)
    .innerJoin("users", "users.id", "certificates.student_id")
    .select(["certificates.enrollment_id", "users.full_name as student_name", "users.email as student_email"]);
}

function toIssued(r: Row & { enrollment_id: string; student_name: string; student_email: string }): IssuedCertificate {
  return {
    ...toSummary(r),
    enrollment_id: r.enrollment_id,
    student: { id: r.student_id, full_name: r.student_name, email: r.student_email },
  };
}

export async function getCertificateByEnrollment(db: DB, enrollmentId: string): Promise<IssuedCertificate | null> {
  const row = await issuedCertificateQuery(db).where("certificates.enrollment_id", "=", enrollmentId).executeTakeFirst();
  return row ? toIssued(row) : null;
}

export const CERTIFICATE_NEEDS_COMPLETION = "Only a completed enrollment can be certified";

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "23505";
}

/**
 * Issues the certificate of a completed enrollment, exactly once. The check and the insert
 * share one write transaction (BEGIN IMMEDIATE on SQLite, so two submits queue rather than
 * interleave), and UNIQUE(certificates.enrollment_id) is the last word: a racing insert that
 * loses is answered with the certificate that won. The number comes from the never-reused
 * sequence; the tier achieved is the course's tier. The event is about the student, so it
 * appears in their notifications. Joins the caller's transaction when there is one.
 */
export async function issueCertificate(
  db: DB,
  input: { enrollmentId: string; actorId: string | null; now?: Date },
): Promise<{ certificate: IssuedCertificate; created: boolean }> {
  const now = input.now ?? new Date();
  try {
    return await writeTransaction(db, async (trx) => {
      const enrollment = await trx
        .selectFrom("enrollments")
        .innerJoin("courses", "courses.id", "enrollments.course_id")
        .select(["enrollments.id", "enrollments.student_id", "enrollments.status", "courses.id as course_id", "courses.name", "courses.tier"])
        .where("enrollments.id", "=", input.enrollmentId)
        .executeTakeFirst();
      if (!enrollment) throw notFound("Enrollment");
      const existing = await getCertificateByEnrollment(trx, enrollment.id);
      if (existing) return { certificate: existing, created: false };
      if (enrollment.status !== "completed") throw new DomainError(409, CERTIFICATE_NEEDS_COMPLETION);
      const id = crypto.randomUUID();
      const number = await nextCertificateNumber(trx, now);
      await trx
        .insertInto("certificates")
        .values({
          id,
          certificate_number: number,
          student_id: enrollment.student_id,
          course_id: enrollment.course_id,
          enrollment_id: enrollment.id,
          tier_achieved: enrollment.tier,
          issue_date: now.toISOString(),
          issued_by: input.actorId,
          created_at: now.toISOString(),
        })
        .execute();
      await recordEvent(trx, {
        actorId: input.actorId,
        subjectUserId: enrollment.student_id,
        type: "certificate.issued",
        entityType: "certificate",
        entityId: id,
        message: `Certificate ${number} issued for ${enrollment.name}`,
        now: now.toISOString(),
      });
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

/** The newest certificates across all students (the trainer's Certificates page). */
export async function listRecentCertificates(db: DB, options: { limit?: number } = {}): Promise<IssuedCertificate[]> {
  const rows = await issuedCertificateQuery(db)
    .orderBy("certificates.issue_date", "desc")
    .orderBy("certificates.certificate_number", "desc")
    .limit(Math.max(1, Math.min(200, options.limit ?? 20)))
    .execute();
  return rows.map(toIssued);
}

/** A completed enrollment with no certificate yet. */
export interface AwaitingCertificate {
  enrollment_id: string;
  completion_date: string | null;
  student: { id: string; full_name: string; email: string };
  course: { id: string; name: string; unit_code: string; tier: Tier };
}

/** Completed enrolments without a certificate; has_certificate is kept by triggers (migration 2026-11-22T1800). */
function awaitingEnrollments(db: DB) {
  return db.selectFrom("enrollments").where("enrollments.status", "=", "completed").where("enrollments.has_certificate", "=", 0);
}

/**
 * Completed enrollments still waiting for their certificate, oldest completion first (the
 * longest wait is the first to act on). Completing through the portal issues at once, so these
 * are records completed before that, or imported.
 */
export async function listCompletedAwaitingCertificate(db: DB, options: { limit?: number } = {}): Promise<AwaitingCertificate[]> {
  const rows = await awaitingEnrollments(db)
    .innerJoin("users", "users.id", "enrollments.student_id")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select([
      "enrollments.id",
      "enrollments.completion_date",
      "users.id as student_id",
      "users.full_name",
      "users.email",
      "courses.id as course_id",
      "courses.name as course_name",
      "courses.unit_code",
      "courses.tier",
    ])
    .orderBy("enrollments.completion_date")
    .orderBy("enrollments.id")
    .limit(Math.max(1, Math.min(500, options.limit ?? 100)))
    .execute();
  return rows.map((r) => ({
    enrollment_id: r.id,
    completion_date: r.completion_date,
    student: { id: r.student_id, full_name: r.full_name, email: r.email },
    course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code, tier: r.tier },
  }));
}

export async function countCompletedAwaitingCertificate(db: DB): Promise<number> {
  // Every enrolment has its student and course (foreign keys), so the count needs no join.
  const row = await awaitingEnrollments(db).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}
