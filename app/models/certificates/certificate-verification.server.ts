import type { DB } from "#db/connection";
import { RATE_LIMITS, takeRateLimit } from "~/security/rate-limits.server";
import { normaliseVerificationCode } from "./certificate-number.server";
import { certificateStatus, certificateUnitTitle, type CertificateStatus } from "./certificate.server";

/**
 * Anyone's check of a certificate by its code (the /verify page and GET /api/verify/{code}):
 * under a rate limit per client, and the same "not found" for a malformed code as for an unknown
 * one, so an answer never tells how close a guess came.
 */

export const NO_CERTIFICATE = "No certificate found";
export const VERIFY_LIMITED = "Too many verification requests from this address; try again in a few minutes.";

export type VerificationLookup =
  { kind: "found"; verification: CertificateVerification } | { kind: "not-found" } | { kind: "limited"; retryAfterSeconds: number };

export async function lookUpVerification(db: DB, input: { code: string; client: string; now?: Date }): Promise<VerificationLookup> {
  const decision = await takeRateLimit(db, [RATE_LIMITS.verification], { client: input.client }, input.now);
  if (!decision.ok) return { kind: "limited", retryAfterSeconds: decision.retryAfterSeconds };
  const code = normaliseVerificationCode(input.code);
  const verification = code ? await verifyCertificate(db, code) : null;
  return verification ? { kind: "found", verification } : { kind: "not-found" };
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
      certificateUnitTitle.as("unit_title"),
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
    unit_title: row.unit_title,
    issue_date: row.issue_date,
    status,
    revoked_at: status === "revoked" ? row.revoked_at : null,
    replaced_by: status === "replaced" ? row.replaced_by : null,
  };
}
