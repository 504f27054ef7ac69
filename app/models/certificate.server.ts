import crypto from "node:crypto";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import { isUniqueViolation } from "#db/dialect";
import type { Role, Tier } from "#db/schema";
import { DomainError, notFound } from "~/utils/errors";
import { newVerificationCode, nextCertificateNumber } from "./certificate-number.server";
import { recordAudit } from "./audit.server";
import { recordEvent } from "./event.server";
import { queueMail } from "./outbox.server";
import { USI_NOT_VERIFIED, usiStatus, type UsiStatus } from "./usi.server";

/**
 * Where a certificate stands: valid, revoked by an administrator, or replaced by a reissued
 * certificate. Records are never deleted, so every number ever issued still verifies.
 */
export type CertificateStatus = "valid" | "revoked" | "replaced";

/** A certificate as the portals and /api show it (with its course and standing). */
export interface CertificateSummary {
  id: string;
  certificate_number: string;
  tier_achieved: Tier;
  issue_date: string;
  verification_code: string;
  status: CertificateStatus;
  revoked_at: string | null;
  replaced_at: string | null;
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
      "certificates.verification_code",
      "certificates.revoked_at",
      "certificates.replaced_at",
      "courses.id as course_id",
      "courses.name as course_name",
      "courses.unit_code",
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof certificateQuery>["execute"]>>[number];

export function certificateStatus(r: { revoked_at: string | null; replaced_at: string | null }): CertificateStatus {
  if (r.replaced_at) return "replaced";
  return r.revoked_at ? "revoked" : "valid";
}

function toSummary(r: Row): CertificateSummary {
  return {
    id: r.id,
    certificate_number: r.certificate_number,
    tier_achieved: r.tier_achieved,
    issue_date: r.issue_date,
    verification_code: r.verification_code,
    status: certificateStatus(r),
    revoked_at: r.revoked_at,
    replaced_at: r.replaced_at,
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

/** A student's certificates in force (neither revoked nor replaced). */
export async function countCertificatesForStudent(db: DB, studentId: string): Promise<number> {
  const row = await db
    .selectFrom("certificates")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("student_id", "=", studentId)
    .where("revoked_at", "is", null)
    .where("replaced_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a certificate's document prints: never the student's id, USI or date of birth. */
export interface CertificateDocumentRecord {
  id: string;
  certificate_number: string;
  tier_achieved: Tier;
  issue_date: string;
  verification_code: string;
  learner_full_name: string;
  /** where the learner is told of it (never printed) */
  learner_email: string;
  course_name: string;
  unit_code: string;
  /** set once an administrator revoked it */
  revoked_at: string | null;
  /** the number of the certificate that replaced it, once reissued */
  replaced_by_number: string | null;
}

/**
 * Everything the certificate document needs, by certificate id. No access rule here: callers
 * first check the viewer with getCertificateForViewer (or are the issuing code itself).
 */
export async function getCertificateDocumentRecord(db: DB, id: string): Promise<CertificateDocumentRecord | null> {
  const row = await documentRecordQuery(db).where("certificates.id", "=", id).executeTakeFirst();
  return row ?? null;
}

/** Keeps a certificate's rendered PDF (replacing an earlier render of it). */
export async function storeCertificateDocument(db: DB, certificateId: string, document: StoredCertificateDocument): Promise<void> {
  await db
    .insertInto("certificate_documents")
    .values({ certificate_id: certificateId, ...document })
    .onConflict((oc) => oc.column("certificate_id").doUpdateSet(document))
    .execute();
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
      "certificates.verification_code",
      "users.full_name as learner_full_name",
      "users.email as learner_email",
      "courses.name as course_name",
      "courses.unit_code",
      "certificates.revoked_at",
      (eb) =>
        eb
          .selectFrom("certificates as successor")
          .select("successor.certificate_number")
          .whereRef("successor.replaces_id", "=", "certificates.id")
          .limit(1)
          .as("replaced_by_number"),
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

/** A certificate as the /api shows it to staff: the summary without whose enrolment it is. */
export function certificateSummaryOf(certificate: IssuedCertificate): CertificateSummary {
  const { enrollment_id: _enrollment, student: _student, ...summary } = certificate;
  return summary;
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

/** The enrolment's current certificate (valid or revoked; a replaced one has a successor). */
export async function getCertificateByEnrollment(db: DB, enrollmentId: string): Promise<IssuedCertificate | null> {
  const row = await issuedCertificateQuery(db)
    .where("certificates.enrollment_id", "=", enrollmentId)
    .where("certificates.replaced_at", "is", null)
    .executeTakeFirst();
  return row ? toIssued(row) : null;
}

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
    data: { certificateNumber: number, unit: `${record.unit_code} ${record.course_name}`, verificationCode: record.verification_code },
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

async function getIssuedCertificate(db: DB, id: string): Promise<IssuedCertificate | null> {
  const row = await issuedCertificateQuery(db).where("certificates.id", "=", id).executeTakeFirst();
  return row ? toIssued(row) : null;
}

/** A certificate in a student's history on the administrator's profile: who did what, and why. */
export interface CertificateHistoryEntry extends CertificateSummary {
  issued_by_name: string | null;
  revoked_by_name: string | null;
  revocation_reason: string | null;
  replaces_number: string | null;
  replaced_by_number: string | null;
}

/** Every certificate ever issued to a student, revoked and replaced ones included, newest first. */
export async function listCertificateHistory(db: DB, studentId: string): Promise<CertificateHistoryEntry[]> {
  const rows = await certificateQuery(db)
    .leftJoin("users as issuer", "issuer.id", "certificates.issued_by")
    .leftJoin("users as revoker", "revoker.id", "certificates.revoked_by")
    .leftJoin("certificates as previous", "previous.id", "certificates.replaces_id")
    .leftJoin("certificates as next", "next.replaces_id", "certificates.id")
    .select([
      "issuer.full_name as issued_by_name",
      "revoker.full_name as revoked_by_name",
      "certificates.revocation_reason",
      "previous.certificate_number as replaces_number",
      "next.certificate_number as replaced_by_number",
    ])
    .where("certificates.student_id", "=", studentId)
    .orderBy("certificates.issue_date", "desc")
    .orderBy("certificates.certificate_number", "desc")
    .execute();
  return rows.map((r) => ({
    ...toSummary(r),
    issued_by_name: r.issued_by_name,
    revoked_by_name: r.revoked_by_name,
    revocation_reason: r.revocation_reason,
    replaces_number: r.replaces_number,
    replaced_by_number: r.replaced_by_number,
  }));
}

/** What anyone may learn about a certificate from its verification code: never a USI or date of birth. */
export interface CertificateVerification {
  certificate_number: string;
  learner_name: string;
  unit_code: string;
  unit_title: string;
  issue_date: string;
  status: CertificateStatus;
  /** when revoked (the reason stays private) */
  revoked_at: string | null;
  /** the number of the certificate that replaced this one */
  replaced_by: string | null;
}

/** The public answer for a verification code in its stored form, or null for no such certificate. */
export async function verifyCertificate(db: DB, code: string): Promise<CertificateVerification | null> {
  const row = await db
    .selectFrom("certificates")
    .innerJoin("courses", "courses.id", "certificates.course_id")
    .innerJoin("users", "users.id", "certificates.student_id")
    .leftJoin("certificates as next", "next.replaces_id", "certificates.id")
    .select([
      "certificates.certificate_number",
      "users.full_name",
      "courses.unit_code",
      "courses.name",
      "certificates.issue_date",
      "certificates.revoked_at",
      "certificates.replaced_at",
      "next.certificate_number as replaced_by",
    ])
    .where("certificates.verification_code", "=", code)
    .executeTakeFirst();
  if (!row) return null;
  const status = certificateStatus(row);
  return {
    certificate_number: row.certificate_number,
    learner_name: row.full_name,
    unit_code: row.unit_code,
    unit_title: row.name,
    issue_date: row.issue_date,
    status,
    revoked_at: status === "revoked" ? row.revoked_at : null,
    replaced_by: status === "replaced" ? row.replaced_by : null,
  };
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

/**
 * A certificate is due within 30 calendar days of completion (the certification rules of the
 * RTO standards); after that it is overdue.
 */
export const CERTIFICATE_GRACE_DAYS = 30;
const DAY_MS = 864e5;

/** The day a completion's certificate is due: completion + 30 days (null when the completion date is missing). */
export function certificateDueDate(completionDate: string | null): string | null {
  if (!completionDate) return null;
  const completed = new Date(completionDate);
  return Number.isNaN(completed.getTime()) ? null : new Date(completed.getTime() + CERTIFICATE_GRACE_DAYS * DAY_MS).toISOString();
}

/** A completed enrollment with no certificate yet, with its 30-day clock and its student's USI standing. */
export interface AwaitingCertificate {
  enrollment_id: string;
  completion_date: string | null;
  /** completion + 30 days; null when the completion date is missing */
  due_date: string | null;
  /** past its due date, or with no completion date to count from */
  overdue: boolean;
  student: { id: string; full_name: string; email: string; usi_status: UsiStatus };
  course: { id: string; name: string; unit_code: string; tier: Tier };
}

/**
 * Completed enrolments without a certificate, the one definition the certificate queues, the
 * compliance check and the students list share; has_certificate is kept by triggers
 * (migration 2026-11-22T1800).
 */
export function awaitingEnrollments(db: DB) {
  return db.selectFrom("enrollments").where("enrollments.status", "=", "completed").where("enrollments.has_certificate", "=", 0);
}

/** Those of them completed more than CERTIFICATE_GRACE_DAYS before `now`: their certificate is overdue. */
export function overdueCertificateEnrollments(db: DB, now: Date) {
  return awaitingEnrollments(db).where("enrollments.completion_date", "<", new Date(now.getTime() - CERTIFICATE_GRACE_DAYS * DAY_MS).toISOString());
}

/**
 * Completed enrollments still waiting for their certificate, overdue first: by completion
 * date, oldest first, so the earliest due date leads (an undated completion before all, as it
 * cannot be shown to be on time). `usi` narrows to those whose student's USI is verified
 * ("ready") or not ("awaiting": the "Awaiting USI" list).
 */
export async function listCompletedAwaitingCertificate(
  db: DB,
  options: { limit?: number; now?: Date; usi?: "ready" | "awaiting" } = {},
): Promise<AwaitingCertificate[]> {
  const now = (options.now ?? new Date()).getTime();
  let query = awaitingEnrollments(db)
    .innerJoin("users", "users.id", "enrollments.student_id")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select([
      "enrollments.id",
      "enrollments.completion_date",
      "users.id as student_id",
      "users.full_name",
      "users.email",
      "users.usi",
      "users.usi_verified_at",
      "courses.id as course_id",
      "courses.name as course_name",
      "courses.unit_code",
      "courses.tier",
    ]);
  if (options.usi === "ready") query = query.where("users.usi", "is not", null).where("users.usi_verified_at", "is not", null);
  if (options.usi === "awaiting") query = query.where((eb) => eb.or([eb("users.usi", "is", null), eb("users.usi_verified_at", "is", null)]));
  const rows = await query
    // undated first, then oldest: NULLS FIRST is SQLite's own ascending order, so its index
    // (status, has_certificate, completion_date, id) gives the rows in order without a sort
    .orderBy("enrollments.completion_date", (ob) => ob.asc().nullsFirst())
    .orderBy("enrollments.id")
    .limit(Math.max(1, Math.min(500, options.limit ?? 100)))
    .execute();
  return rows.map((r) => {
    const due = certificateDueDate(r.completion_date);
    return {
      enrollment_id: r.id,
      completion_date: r.completion_date,
      due_date: due,
      overdue: due === null || new Date(due).getTime() < now,
      student: { id: r.student_id, full_name: r.full_name, email: r.email, usi_status: usiStatus(r) },
      course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code, tier: r.tier },
    };
  });
}

export async function countCompletedAwaitingCertificate(db: DB): Promise<number> {
  // Every enrolment has its student and course (foreign keys), so the count needs no join.
  const row = await awaitingEnrollments(db).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}
