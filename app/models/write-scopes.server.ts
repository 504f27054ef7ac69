/**
 * The scopes of the writes that read beside each other (writeTransaction's `scopes`, db/connection.ts):
 * the busiest writes, a learner enrolling, a trainer recording a result and an employer booking
 * seats, take their turns only to write. Each names what its checks read that another of them
 * could change; two writes sharing a scope take turns from the start.
 *
 * - a learner: their enrolments and results, their student number and their review attempts;
 * - a course: the seats of its classes (enrolments, employers' bookings, waitlist offers).
 *
 * Everything else those checks read (a course's price and status, a trainer's credentials, the
 * default location) only unscoped writes change, and those wait for every scoped write to end.
 */
export const learnerScope = (studentId: string) => `learner:${studentId}`;
export const courseScope = (courseId: string) => `course:${courseId}`;
export const employerScope = (employerId: string) => `employer:${employerId}`;
