import type { DB } from "#db/connection";
import type { Tier } from "#db/schema";
import { usiStatus, type UsiStatus } from "../usi.server";

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
  return (
    db
      .selectFrom("enrollments")
      .where("enrollments.status", "=", "completed")
      .where("enrollments.has_certificate", "=", 0)
      // a unit credited from another RTO's document gets no statement from this one (CONTRACT 24)
      // (a list read once, not a subquery per enrolment: the students list filters by this at scale)
      .where("enrollments.id", "not in", (eb) => eb.selectFrom("recognition_applications as ra").select("ra.enrollment_id").where("ra.outcome_code", "=", "60"))
  );
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
  const row = await awaitingEnrollments(db)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
