import type { DB } from "#db/connection";
import { organisationToday } from "~/utils/organisation-calendar";
import { licenceApplicationsDue, noticesDue } from "./hrw-assessment.server";
import { expiryWarnings } from "./hrw-register.server";
import { assessorCurrency, listRegulatorTasks } from "./hrw-currency.server";

/** What the dashboards show of high-risk work assessments, each for whom it concerns. */

/** The assessor: notices to give the regulator, their own expiries within 60 days, and their currency lapsing within 90. */
export async function trainerHrwAlerts(db: DB, trainerId: string) {
  const today = organisationToday();
  const [notices, warnings, currency] = await Promise.all([
    noticesDue(db, trainerId),
    expiryWarnings(db, today, trainerId),
    assessorCurrency(db, trainerId, today),
  ]);
  return { today, notices, warnings, currency: currency.filter((c) => c.status !== "current") };
}

/** The administrators: every assessor's accreditation and licence expiries within 60 days, and what to tell a regulator. */
export async function adminHrwAlerts(db: DB) {
  const [warnings, tasks] = await Promise.all([expiryWarnings(db, organisationToday()), listRegulatorTasks(db, { open: true })]);
  return { warnings, tasks };
}

/** The candidate: licences to apply for, with the NSA's 60-day deadline. */
export async function candidateHrwDeadlines(db: DB, studentId: string) {
  return { deadlines: await licenceApplicationsDue(db, studentId, organisationToday()) };
}
