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

export { ISSUE_LABELS, STUDENT_ISSUES, STUDENT_STATUSES, type StudentIssue, type StudentStatusFilter } from "./student-filters";
