import { z } from "zod";
import { ALREADY_ENROLLED, TERMS_REQUIRED } from "./enrollment-text";
import { checkbox } from "./fields";

export { ALREADY_ENROLLED, TERMS_REQUIRED };

/**
 * The course id as it arrives in a URL or payload. Any string is accepted (bounded): an id
 * that is not a known, active course is "Course not found", never a validation error.
 */
export const courseIdField = z
  .string({ message: "Course is required" })
  .trim()
  .min(1, "Course is required")
  .max(100, "Course not found");

/** POST /api/enrollments: `{ course_id }`. */
export const enrollmentPayloadSchema = z.object({ course_id: courseIdField });
export type EnrollmentPayload = z.infer<typeof enrollmentPayloadSchema>;

/** The enrolment form: the course comes from the URL; the terms box must be ticked. */
export const enrollmentFormSchema = z.object({
  terms: checkbox.refine((agreed) => agreed, TERMS_REQUIRED),
});
