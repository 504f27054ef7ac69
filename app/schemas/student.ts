import { z } from "zod";
import { formToObject } from "~/utils/validation";
import { avetmissListsFromForm, avetmissShape, type AvetmissInput } from "~/schemas/avetmiss-details";
import { address, dateOfBirth, email, optionalText, password, phone, requiredText, usi } from "./fields";

/**
 * A student record as an administrator edits it (Edit Student form and
 * PUT /api/admin/students/{id}). No defaults or form coercions live here, so
 * `studentObject.partial()` is a true partial update: a field left out stays as stored.
 */
export const studentObject = z.object({
  full_name: requiredText("Full name"),
  email,
  phone,
  address,
  date_of_birth: dateOfBirth,
  emergency_contact: optionalText("Emergency contact"),
  license_number: optionalText("Licence number", 60),
  is_active: z.boolean({ message: "Active must be true or false" }),
  usi,
  /** true records that the caller verified the (new) USI with the USI Registry */
  usi_verified: z.literal(true, { message: "usi_verified can only be true: it records a verification" }).optional(),
  ...avetmissShape,
});
export type StudentInput = z.infer<typeof studentObject>;

/** The Edit Student form: every field is on the form, so nothing is optional. */
export const studentUpdateSchema = studentObject;

/** The /api partial update. */
export const studentPatchSchema = studentObject.partial();
export type StudentPatch = z.infer<typeof studentPatchSchema>;

/** Add Student: the same record plus the account's first password. */
export const studentCreateSchema = studentObject.extend({ password });
/** The AVETMISS details are optional to a caller of the model: left out, they are not stated. */
export type StudentCreateInput = Omit<z.infer<typeof studentCreateSchema>, keyof AvetmissInput> & Partial<AvetmissInput>;

/**
 * A submitted student form as the schemas above want it: a checkbox is present ("on") or
 * absent, so `is_active` becomes a boolean here rather than in the schema.
 */
export function studentFormInput(form: FormData): Record<string, unknown> {
  const { is_active: _ignored, usi_verified: _verified, ...rest } = formToObject(form);
  const verified = form.get("usi_verified") === "on" || form.get("usi_verified") === "true";
  return {
    ...rest,
    ...avetmissListsFromForm(form),
    is_active: form.get("is_active") === "on" || form.get("is_active") === "true",
    ...(verified ? { usi_verified: true } : {}),
  };
}

export { ISSUE_LABELS, STUDENT_ISSUES, STUDENT_STATUSES, type StudentIssue, type StudentStatusFilter } from "./student-filters";
