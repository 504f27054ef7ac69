import type { DB } from "#db/connection";

/**
 * What an employer's user may see, in one place: the workers named on their own organisation's
 * bookings, and of those only the results of workers who share them (consent = 1, withdrawn
 * by setting it back to 0). Every employer query, and the certificate download, is scoped here.
 */

/** The organisation of an employer's user, as a subquery (null, so matching nothing, for anyone else). */
export function employerOf(db: DB, userId: string) {
  return db.selectFrom("users").select("employer_id").where("id", "=", userId).where("role", "=", "employer");
}

/** The booking workers an employer's user may read. */
export function workersOfEmployerUser(db: DB, userId: string) {
  return db.selectFrom("booking_workers as w").innerJoin("group_bookings as b", "b.id", "w.booking_id").where("b.employer_id", "=", employerOf(db, userId));
}

/** The enrolments whose results an employer's user may read: their workers who share them. */
export function consentedEnrollments(db: DB, userId: string) {
  return workersOfEmployerUser(db, userId).select("w.enrollment_id").where("w.consent", "=", 1).where("w.enrollment_id", "is not", null);
}
