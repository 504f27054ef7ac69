import { writeTransaction, type DB } from "#db/connection";
import type { InvoiceSourceKind } from "#db/schema-finance";
import { REFUND_POLICY_DAY_TAKEN, REFUND_POLICY_NOT_BACKDATED } from "~/schemas/invoice-text";
import { conflict, invalid } from "~/utils/errors";
import { organisationToday } from "~/utils/organisation-calendar";
import { actorOf, recordAudit, type ActorRef } from "../audit.server";

/**
 * The refund policy's versions (migration 2026-12-04T1030): a refund is decided under the
 * version in force on the day the learner enrolled, so each enrolment and credit note cites that
 * one, read from this table.
 */

/** The version in force on an organisation day (YYYY-MM-DD): the latest to take effect on or before it; null before the first. */
export async function refundPolicyInForce(db: DB, day: string): Promise<string | null> {
  const row = await db
    .selectFrom("refund_policies")
    .select("version")
    .where("effective_from", "<=", day)
    .orderBy("effective_from", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.version ?? null;
}

/** The version in force when an enrolment was made (its timestamp read as the organisation's day). */
export async function refundPolicyOfEnrollment(db: DB, enrollmentId: string): Promise<string | null> {
  const enrollment = await db.selectFrom("enrollments").select("enrollment_date").where("id", "=", enrollmentId).executeTakeFirst();
  return enrollment ? refundPolicyInForce(db, organisationToday(new Date(enrollment.enrollment_date))) : null;
}

/**
 * The version an invoice's refunds are decided under: its enrolment's, or the version its group
 * booking kept when it was made (null for a booking made before bookings kept one: not
 * recorded, never looked up again from the day, which the booking's own record does not settle).
 */
export async function refundPolicyOfInvoiceSource(db: DB, source: { kind: InvoiceSourceKind; id: string }): Promise<string | null> {
  if (source.kind === "enrollment") return refundPolicyOfEnrollment(db, source.id);
  if (source.kind !== "booking") return null;
  const booking = await db.selectFrom("group_bookings").select("refund_policy_version").where("id", "=", source.id).executeTakeFirst();
  return booking?.refund_policy_version ?? null;
}

/** Every version, newest first (the finance settings page lists them). */
export function listRefundPolicies(db: DB) {
  return db.selectFrom("refund_policies").select(["version", "effective_from", "created_at"]).orderBy("effective_from", "desc").execute();
}

/**
 * A new version taking effect on a day (named by that day). Never backdated: an enrolment already
 * made stays under the version it was made under. Checked and recorded in one transaction.
 */
export async function addRefundPolicy(db: DB, input: { effective_from: string }, actor: ActorRef, now = new Date()): Promise<void> {
  if (input.effective_from < organisationToday(now)) throw invalid(REFUND_POLICY_NOT_BACKDATED, { effective_from: REFUND_POLICY_NOT_BACKDATED });
  await writeTransaction(db, async (trx) => {
    const taken = await trx
      .selectFrom("refund_policies")
      .select("version")
      .where((eb) => eb.or([eb("effective_from", "=", input.effective_from), eb("version", "=", input.effective_from)]))
      .executeTakeFirst();
    if (taken) throw conflict(REFUND_POLICY_DAY_TAKEN, "effective_from");
    const by = actorOf(actor);
    await trx
      .insertInto("refund_policies")
      .values({ version: input.effective_from, effective_from: input.effective_from, created_at: now.toISOString(), created_by: by.id })
      .execute();
    await recordAudit(trx, { action: "finance.refund_policy_added", actor: by, detail: `version ${input.effective_from}`, now });
  });
}
