import { z } from "zod";
import { confirmPassword, email, password, passwordsMatch } from "./fields";

/** The Reset Password modal: only a well-formed email is needed. */
export const passwordResetRequestSchema = z.object({ email });
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestSchema>;

/** The new-password form: the same password rules and messages as registration. */
export const passwordResetSchema = z.object({ password, confirm_password: confirmPassword }).refine(...passwordsMatch);
