import type { DB } from "#db/connection";
import { organisationToday } from "~/utils/organisation-calendar";
import { licenceApplicationsDue, noticesDue } from "./hrw-assessment.server";
import { expiryWarnings } from "./hrw-register.server";

/** What the dashboards show of high-risk work assessments, each for whom it concerns. */

/** The assessor: notices to give the regulator and their own expiries within 60 days. */
export async function trainerHrwAlerts(db: DB, trainerId: string) {
  const today = organisationToday();
  const [notices, warnings] = await Promise.all([noticesDue(db, trainerId), expiryWarnings(db, today, trainerId)]);
  return { today, notices, warnings };
}

/** The administrators: every assessor's accreditation and licence expiries within 60 days. */
export async function adminHrwAlerts(db: DB) {
  return { warnings: await expiryWarnings(db, organisationToday()) };
}

/** The candidate: licences to apply for, with the NSA's 60-day deadline. */
export async function candidateHrwDeadlines(db: DB, studentId: string) {
  return { deadlines: await licenceApplicationsDue(db, studentId, organisationToday()) };
}
