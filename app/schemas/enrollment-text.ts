/**
 * Enrolment messages shown on pages, kept free of zod so they do not pull the validator into
 * the browser; app/schemas/enrollment.ts builds its rules from them.
 */

export const TERMS_REQUIRED = "Please agree to the terms and conditions";
export const ALREADY_ENROLLED = "You are already enrolled in this course";
