import type { EnrollmentStatus } from "#db/schema";
import { addDays, organisationDate } from "~/utils/organisation-calendar";

/**
 * How an enrolment's status and progress fit together, whatever its state before: completing
 * always means 100%, and "enrolled" means not started. The rules that depend on the current
 * state (completed stays completed, a withdrawn enrolment reopens only on request) live in
 * `updateEnrollmentProgress`. Plain functions without the database, so the form's schema can
 * point at the field at fault before anything is read.
 */

export const PROGRESS_REQUIRED = "Progress is required (0 to 100)";
export const ENROLLED_MEANS_NOT_STARTED = "Progress above 0% means the course has started: choose In progress, or set progress to 0";

export type ProgressInStatus = { ok: true; progress: number } | { ok: false; field: "progress" | "status"; message: string };

/** The progress an enrolment is saved with in `status`, or the rule the pair breaks and the field at fault. */
export function progressInStatus(status: EnrollmentStatus, progress: number | null): ProgressInStatus {
  const saved = status === "completed" ? 100 : progress;
  if (saved === null) return { ok: false, field: "progress", message: PROGRESS_REQUIRED };
  if (status === "enrolled" && saved > 0) return { ok: false, field: "status", message: ENROLLED_MEANS_NOT_STARTED };
  return { ok: true, progress: saved };
}

/** A full training day: an enrolment's planned length is its unit's nominal hours at this rate. */
export const HOURS_PER_TRAINING_DAY = 8;

export { addDays };

/**
 * The planned dates of an enrolment with no class: it starts on its enrolment date (the
 * organisation's day of that instant) and runs
 * for the unit's nominal hours at eight a day (one day at least).
 */
export function defaultPlannedDates(enrollmentDate: string, nominalHours: number): { start: string; end: string } {
  const start = organisationDate(enrollmentDate);
  return { start, end: addDays(start, Math.max(1, Math.ceil(nominalHours / HOURS_PER_TRAINING_DAY))) };
}
