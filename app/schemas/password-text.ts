import type { Role } from "#db/schema";

/**
 * The password rule's figures and wording, zod-free so pages may show it: the one home every
 * hint, schema message and the model's check (app/security/password-policy.server.ts) read, so
 * what a page says before anything is typed is what it says when a password is refused.
 */

export const PASSWORD_TOO_COMMON = "This password is too common";
export const STUDENT_PASSWORD_MINIMUM = 6;
export const STAFF_PASSWORD_MINIMUM = 12;

/** Learners keep the shorter minimum; staff and employers' users, who see other people's records, the longer. */
export const passwordMinimum = (role: Role) => (role === "student" ? STUDENT_PASSWORD_MINIMUM : STAFF_PASSWORD_MINIMUM);

/** Whether a password is long enough for an account of `role`, counted in characters as typed (an emoji is one). */
export const passwordLongEnough = (password: string, role: Role) => [...password].length >= passwordMinimum(role);

export const passwordTooShort = (role: Role) =>
  role === "trainer" || role === "admin"
    ? `Staff passwords must be at least ${passwordMinimum(role)} characters`
    : `Password must be at least ${passwordMinimum(role)} characters`;

/** The rule where the account's role is not known yet (registration, a reset, a change): both minimums. */
export const PASSWORD_HINT = `At least ${STUDENT_PASSWORD_MINIMUM} characters (${STAFF_PASSWORD_MINIMUM} for trainers and administrators), not a common password`;

/** The rule for one account's new password, shown beside the field before anything is typed. */
export const passwordRule = (role: Role) => `At least ${passwordMinimum(role)} characters, not a common password`;
