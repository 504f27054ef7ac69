import { sql } from "kysely";
import type { DB } from "#db/connection";
import type { Role, Tier } from "#db/schema";
import { consentedEnrollments } from "../employers/employer-scope.server";

/*
 * Reading certificates: what the portals and /api show of them. Issuing, revoking and
 * reissuing are certificate-issue.server.ts; the printed document certificate-document.server.ts;
 * the public check by code certificate-verification.server.ts; the 30-day clock of completions
 * still waiting for theirs certificate-due.server.ts.
 */

/**
 * Where a certificate stands: valid, revoked by an administrator, or replaced by a reissued
 * certificate. Records are never deleted, so every number ever issued still verifies.
 */
export type CertificateStatus = "valid" | "revoked" | "replaced";

/**
 * How a certificate names its unit, wherever the certificate itself is shown (the document,
 * its verification, its mail, the learner's card): the unit's official title from the national
 * register, never the course's display name, which carries marketing words and licence class
 * letters. A course recorded before the official title was kept has none, and its display name
 * stands in until an administrator records the title (the course page says it is missing);
 * the document is rendered again then, since its printed values changed. Read with the
 * courses table joined under its own name.
 */
export const certificateUnitTitle = sql<string>`coalesce(${sql.ref("courses.official_title")}, ${sql.ref("courses.name")})`;

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
  /** name: the course's display name (lists of courses); unit_title: what the certificate prints */
  course: { id: string; name: string; unit_code: string; unit_title: string };
}

export function certificateQuery(db: DB) {
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
      certificateUnitTitle.as("unit_title"),
    ]);
}

export type CertificateRow = Awaited<ReturnType<ReturnType<typeof certificateQuery>["execute"]>>[number];

export function certificateStatus(r: { revoked_at: string | null; replaced_at: string | null }): CertificateStatus {
  if (r.replaced_at) return "replaced";
  return r.revoked_at ? "revoked" : "valid";
}

export function toSummary(r: CertificateRow): CertificateSummary {
  return {
    id: r.id,
    certificate_number: r.certificate_number,
    tier_achieved: r.tier_achieved,
    issue_date: r.issue_date,
    verification_code: r.verification_code,
    status: certificateStatus(r),
    revoked_at: r.revoked_at,
    replaced_at: r.replaced_at,
    course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code, unit_title: r.unit_title },
  };
}

/** A student's certificates, newest first; `limit` for dashboards. */
export async function listCertificatesForStudent(db: DB, studentId: string, options: { limit?: number } = {}): Promise<CertificateSummary[]> {
  let query = certificateQuery(db).where("certificates.student_id", "=", studentId).orderBy("certificates.issue_date", "desc").orderBy("certificates.id");
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
  // an employer's user: only the statements of their own workers who share their results
  if (viewer.role === "employer") query = query.where("certificates.enrollment_id", "in", consentedEnrollments(db, viewer.id));
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

function toIssued(r: CertificateRow & { enrollment_id: string; student_name: string; student_email: string }): IssuedCertificate {
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

/** One certificate with its student, by id. */
export async function getIssuedCertificate(db: DB, id: string): Promise<IssuedCertificate | null> {
  const row = await issuedCertificateQuery(db).where("certificates.id", "=", id).executeTakeFirst();
  return row ? toIssued(row) : null;
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
