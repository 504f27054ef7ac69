import { writeTransaction, type DB } from "#db/connection";
import type { Role } from "#db/schema";
import { awaitingEnrollments } from "./certificates/certificate-due.server";
import { issueCertificate } from "./certificates/certificate-issue.server";
import { recordUsiVerification } from "./usi.server";

/**
 * Records that `actor` verified the student's USI with the USI Registry and, in the same
 * transaction, issues the certificate of each of the student's completed enrolments still
 * without one: the verified USI was the last thing they waited for, so they are issued at once,
 * as completing an enrolment of a verified student does. Returns the numbers issued. Joins the
 * caller's write transaction when there is one.
 */
export async function verifyUsiAndIssue(
  db: DB,
  input: { studentId: string; actor: { id: string; role: Role; client?: string | null }; now?: Date },
): Promise<{ usi: string; usi_verified_at: string; issued: string[] }> {
  const now = input.now ?? new Date();
  return writeTransaction(db, async (trx) => {
    const verified = await recordUsiVerification(trx, { ...input, now });
    const waiting = await awaitingEnrollments(trx)
      .select("enrollments.id")
      .where("enrollments.student_id", "=", input.studentId)
      .orderBy("enrollments.completion_date")
      .orderBy("enrollments.id")
      .execute();
    const issued: string[] = [];
    for (const { id } of waiting) {
      const { certificate, created } = await issueCertificate(trx, { enrollmentId: id, actorId: input.actor.id || null, client: input.actor.client, now });
      if (created) issued.push(certificate.certificate_number);
    }
    return { ...verified, issued };
  });
}

/** What the trainer is told after verifying: the USI, and the certificates it let through. */
export function usiVerifiedMessage(name: string, issued: readonly string[]): string {
  const verified = `USI of ${name} recorded as verified`;
  if (issued.length === 0) return verified;
  return `${verified}; ${issued.length === 1 ? "certificate" : "certificates"} ${issued.join(", ")} issued`;
}
