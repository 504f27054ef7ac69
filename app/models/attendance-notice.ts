import { formatDate } from "~/utils/format";

/**
 * The words of a learner's attendance notification, one per day (attendance.server.ts
 * noteAttendanceDay). Migration 2026-12-04T1402 keeps a frozen copy for the notifications it folded.
 */

export const ATTENDANCE_NOTICE = { type: "attendance.day", entityType: "attendance" } as const;

/** "Attendance on 4 Dec 2026: Rigging intermediate, present." or, with two sessions that day, each with its start time. */
export function attendanceDayMessage(day: string, marks: Array<{ course: string; time: string; status: string }>): string {
  const timed = marks.length > 1;
  const parts = marks.map((m) => `${m.course}${timed ? ` at ${m.time}` : ""}, ${m.status}`);
  return `Attendance on ${formatDate(day)}: ${parts.length ? parts.join("; ") : "no marks"}.`;
}
