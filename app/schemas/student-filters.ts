/**
 * The student list's filters, without zod, so pages can show them without shipping the
 * validation library to the browser (app/schemas/student.ts re-exports them).
 */

/** The student list's status filter (Student Management, GET /api/admin/students). */
export const STUDENT_STATUSES = ["all", "active", "inactive"] as const;
export type StudentStatusFilter = (typeof STUDENT_STATUSES)[number];

/**
 * Record problems the compliance report links to (ASQA: complete, accurate learner records).
 * - missing-dob: an active student without a date of birth
 * - missing-contact: an active student without a phone number or an emergency contact
 * - uncertified: a student with an enrolment completed more than 30 days ago and no certificate
 * - undated-completion: a student with a completed enrolment that has no completion date
 */
export const STUDENT_ISSUES = ["missing-dob", "missing-contact", "uncertified", "undated-completion", "usi-clash"] as const;
export type StudentIssue = (typeof STUDENT_ISSUES)[number];

export const ISSUE_LABELS: Record<StudentIssue, string> = {
  "missing-dob": "Active students missing a date of birth",
  "missing-contact": "Active students missing a phone number or emergency contact",
  uncertified: "Students with a course completed over 30 days ago and no certificate",
  "undated-completion": "Students with a completed course that has no completion date",
  "usi-clash": "Students who gave a USI that another person holds",
};
