import { z } from "zod";
import { formToObject } from "~/utils/validation";
import { dateOfBirth, email, optionalText, password, phone, requiredText } from "./fields";

/**
 * A student record as an administrator edits it (Edit Student form and
 * PUT /api/admin/students/{id}). No defaults or form coercions live here, so
 * `studentObject.partial()` is a true partial update: a field left out stays as stored.
 */
export const studentObject = z.object({
  full_name: requiredText("Full name"),
  email,
  phone,
  address: optionalText("Address", 500),
  date_of_birth: dateOfBirth,
  emergency_contact: optionalText("Emergency contact"),
  license_number: optionalText("Licence number", 60),
  is_active: z.boolean({ message: "Active must be true or false" }),
});
export type StudentInput = z.infer<typeof studentObject>;

/** The Edit Student form: every field is on the form, so nothing is optional. */
export const studentUpdateSchema = studentObject;

/** The /api partial update. */
export const studentPatchSchema = studentObject.partial();
export type StudentPatch = z.infer<typeof studentPatchSchema>;

/** Add Student: the same record plus the account's first password. */
export const studentCreateSchema = studentObject.extend({ password });
export type StudentCreateInput = z.infer<typeof studentCreateSchema>;

/**
 * A submitted student form as the schemas above want it: a checkbox is present ("on") or
 * absent, so `is_active` becomes a boolean here rather than in the schema.
 */
export function studentFormInput(form: FormData): Record<string, unknown> {
  const { is_active: _ignored, ...rest } = formToObject(form);
  return { ...rest, is_active: form.get("is_active") === "on" || form.get("is_active") === "true" };
}

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
export const STUDENT_ISSUES = ["missing-dob", "missing-contact", "uncertified", "undated-completion"] as const;
export type StudentIssue = (typeof STUDENT_ISSUES)[number];

export const ISSUE_LABELS: Record<StudentIssue, string> = {
  "missing-dob": "Active students missing a date of birth",
  "missing-contact": "Active students missing a phone number or emergency contact",
  uncertified: "Students with a course completed over 30 days ago and no certificate",
  "undated-completion": "Students with a completed course that has no completion date",
};
