import type { DB } from "#db/connection";
import { organisationToday } from "~/utils/organisation-calendar";

/**
 * The refund policy's versions (migration 2026-12-04T1030): a refund is decided under the
 * version in force on the day the learner enrolled, so each enrolment and credit note cites that
 * one, read from this table.
 */

/** The version in force on an organisation day (YYYY-MM-DD): the latest to take effect on or before it; null before the first. */
export async function refundPolicyInForce(db: DB, day: string): Promise<string | null> {
  const row = await db.selectFrom("refund_policies").select("version").where("effective_from", "<=", day).orderBy("effective_from", "desc").limit(1).executeTakeFirst();
  return row?.version ?? null;
}

/** The version in force when an enrolment was made (its timestamp read as the organisation's day). */
export async function refundPolicyOfEnrolment(db: DB, enrollmentId: string): Promise<string | null> {
  const enrolment = await db.selectFrom("enrollments").select("enrollment_date").where("id", "=", enrollmentId).executeTakeFirst();
  return enrolment ? refundPolicyInForce(db, organisationToday(new Date(enrolment.enrollment_date))) : null;
}

/** Every version, newest first (the finance settings page lists them). */
export function listRefundPolicies(db: DB) {
  return db.selectFrom("refund_policies").select(["version", "effective_from", "created_at"]).orderBy("effective_from", "desc").execute();
}
