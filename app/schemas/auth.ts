import { z } from "zod";
import { dateOfBirth, email, optionalText, password, phone, requiredText } from "./fields";

export const ROLES = ["student", "trainer", "admin"] as const;

export const loginSchema = z.object({
  email: z
    .string({ message: "Email is required" })
    .trim()
    .min(1, "Email is required")
    .max(254, "Email must be at most 254 characters")
    .transform((v) => v.toLowerCase()),
  password: z
    .string({ message: "Password is required" })
    .min(1, "Password is required")
    .max(200, "Password must be at most 200 characters"),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The registration payload of spec section 3 (what POST /api/auth/register takes). */
export const registrationSchema = z.object({
  full_name: requiredText("Full name"),
  email,
  password,
  phone,
  role: z.enum(ROLES, { message: "Account type must be student, trainer or admin" }).default("student"),
  address: optionalText("Address", 500),
  date_of_birth: dateOfBirth,
  emergency_contact: optionalText("Emergency contact"),
});
export type RegistrationInput = z.infer<typeof registrationSchema>;

/** The registration form: the payload plus a confirmation that is checked, never sent on. */
export const registerFormSchema = registrationSchema
  .extend({ confirm_password: z.string({ message: "Please confirm your password" }).min(1, "Please confirm your password") })
  .refine((v) => v.password === v.confirm_password, {
    message: "Passwords do not match",
    path: ["confirm_password"],
  });
