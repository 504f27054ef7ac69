import type { Role } from "#db/schema";

/** Wording of the password rule, zod-free so pages may show it (app/security/password-policy.server.ts enforces it). */

export const PASSWORD_TOO_COMMON = "This password is too common";
export const STUDENT_PASSWORD_MINIMUM = 6;
export const STAFF_PASSWORD_MINIMUM = 12;

export const passwordMinimum = (role: Role) => (role === "student" ? STUDENT_PASSWORD_MINIMUM : STAFF_PASSWORD_MINIMUM);

export const passwordTooShort = (role: Role) =>
  role === "student"
    ? `Password must be at least ${STUDENT_PASSWORD_MINIMUM} characters`
    : `Staff passwords must be at least ${STAFF_PASSWORD_MINIMUM} characters`;

export const PASSWORD_HINT = `At least ${STUDENT_PASSWORD_MINIMUM} characters (${STAFF_PASSWORD_MINIMUM} for trainers and administrators), not a common password`;

/** The rule for one account's new password, shown beside the field before anything is typed. */
export const passwordRule = (role: Role) => `At least ${passwordMinimum(role)} characters, not a common password`;
