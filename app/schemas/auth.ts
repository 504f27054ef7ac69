import { z } from "zod";
import { SIGN_UP_ROLES } from "#db/schema";
import {
  address,
  confirmPassword,
  dateOfBirth,
  email,
  optionalText,
  password,
  passwordsMatch,
  phone,
  requiredText,
  signInEmail,
  signInPassword,
  usi,
} from "./fields";

/** A second-step code: six digits from an authenticator, or a recovery code. */
export const secondStepCode = z.string({ message: "Enter the code" }).trim().min(1, "Enter the code").max(40, "That code is too long");

/** `code` is the second step of an account that has one (the /api sends it with the password). */
export const loginSchema = z.object({ email: signInEmail, password: signInPassword, code: secondStepCode.optional() });

/** POST /api/auth/logout: this token, or with `everywhere` every session and token of the user. */
export const logoutSchema = z.object({
  everywhere: z
    .boolean({ message: "everywhere must be true or false" })
    .optional()
    .describe("true ends every session and token of the user, not just this token"),
});

/** The second-step page: the code alone (the password was checked on the page before). */
export const secondStepSchema = z.object({ code: secondStepCode });
export type LoginInput = z.infer<typeof loginSchema>;

/** The registration payload: what the Create Account form and POST /api/auth/register take. */
export const registrationSchema = z.object({
  full_name: requiredText("Full name"),
  email,
  password,
  phone,
  role: z.enum(SIGN_UP_ROLES, { message: "Account type must be student, trainer or admin" }).default("student"),
  address,
  date_of_birth: dateOfBirth,
  emergency_contact: optionalText("Emergency contact"),
  usi,
});
/** The model takes the USI as optional: callers other than the form may leave it out. */
export type RegistrationInput = Omit<z.infer<typeof registrationSchema>, "usi"> & { usi?: string | null };

/** The registration form: the payload plus a confirmation that is checked, never sent on. */
export const registerFormSchema = registrationSchema.extend({ confirm_password: confirmPassword }).refine(...passwordsMatch);

/**
 * What proves the owner is at the keyboard before a factor changes (Account security): the
 * current password and, where two-step sign-in is on, a current code or a recovery code. The
 * code is optional here because only the account knows whether it needs one; the model asks
 * for it beside its field.
 */
const currentPassword = z
  .string({ message: "Enter your current password" })
  .min(1, "Enter your current password")
  .max(200, "Password must be at most 200 characters");
const currentCode = z
  .string()
  .trim()
  .max(40, "That code is too long")
  .optional()
  .transform((v) => (v ? v : undefined));
export const ownerProofSchema = z.object({ current_password: currentPassword, current_code: currentCode });
export type OwnerProof = z.infer<typeof ownerProofSchema>;

/** Setting up an authenticator: the current password when none is in use yet is asked for at confirmation. */
export const beginTwoStepSchema = z.object({ current_password: currentPassword.optional(), current_code: currentCode });

/** Confirming a new authenticator: its code and the current password. */
export const confirmTwoStepSchema = z.object({ code: secondStepCode, current_password: currentPassword });

/** Account security → Change password: the current password (and code), then the new one twice. */
export const passwordChangeSchema = z
  .object({ current_password: currentPassword, current_code: currentCode, password, confirm_password: confirmPassword })
  .refine(...passwordsMatch);
