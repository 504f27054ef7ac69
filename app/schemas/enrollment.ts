import { z } from "zod";
import { ALREADY_ENROLLED, TERMS_REQUIRED } from "./enrollment-text";
import { checkbox } from "./fields";

export { ALREADY_ENROLLED, TERMS_REQUIRED };

/**
 * The course id as it arrives in a URL or payload. Any string is accepted (bounded): an id
 * that is not a known, active course is "Course not found", never a validation error.
 */
export const courseIdField = z.string({ message: "Course is required" }).trim().min(1, "Course is required").max(100, "Course not found");

/** A class of the course (docs/decisions/013-classes.md); an id that names none is "Class not found". */
export const classIdField = z.string({ message: "Class is required" }).trim().min(1, "Class is required").max(100, "Class not found");

/** POST /api/enrollments: `{ course_id }`, and `class_id` to choose a class of a course that has them. */
export const enrollmentPayloadSchema = z.object({ course_id: courseIdField, class_id: classIdField.optional() });
export type EnrollmentPayload = z.infer<typeof enrollmentPayloadSchema>;

/** The enrolment form: the course comes from the URL; the terms box must be ticked. */
export const enrollmentFormSchema = z.object({
  terms: checkbox.refine((agreed) => agreed, TERMS_REQUIRED),
  /** sent only by the form of a course with classes (its radio list) */
  class_id: classIdField.optional(),
});
