import { z } from "zod";
import { email, password } from "./fields";

/** The Reset Password modal: only a well-formed email is needed. */
export const passwordResetRequestSchema = z.object({ email });
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestSchema>;

/** The new-password form: the registration rules and messages (spec section 5). */
export const passwordResetSchema = z
  .object({
    password,
    confirm_password: z.string({ message: "Please confirm your password" }).min(1, "Please confirm your password"),
  })
  .refine((v) => v.password === v.confirm_password, { message: "Passwords do not match", path: ["confirm_password"] });
