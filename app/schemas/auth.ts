import { z } from "zod";
import { ROLES } from "#db/schema";
import { address, confirmPassword, dateOfBirth, email, optionalText, password, passwordsMatch, phone, requiredText, signInEmail, signInPassword, usi } from "./fields";

export const loginSchema = z.object({ email: signInEmail, password: signInPassword });
export type LoginInput = z.infer<typeof loginSchema>;

/** The registration payload: what the Create Account form and POST /api/auth/register take. */
export const registrationSchema = z.object({
  full_name: requiredText("Full name"),
  email,
  password,
  phone,
  role: z.enum(ROLES, { message: "Account type must be student, trainer or admin" }).default("student"),
  address,
  date_of_birth: dateOfBirth,
  emergency_contact: optionalText("Emergency contact"),
  usi,
});
/** The model takes the USI as optional: callers other than the form may leave it out. */
export type RegistrationInput = Omit<z.infer<typeof registrationSchema>, "usi"> & { usi?: string | null };

/** The registration form: the payload plus a confirmation that is checked, never sent on. */
export const registerFormSchema = registrationSchema.extend({ confirm_password: confirmPassword }).refine(...passwordsMatch);
