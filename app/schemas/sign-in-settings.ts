import { z } from "zod";

/**
 * Whether staff must sign in with the organisation's identity provider: the Staff page's form
 * posts "true" or "false", PUT /api/admin/sign-in-settings a JSON boolean; one schema reads both.
 */
export const signInSettingsSchema = z.object({
  require_sso_for_staff: z.preprocess(
    (v) => (v === "true" ? true : v === "false" ? false : v),
    z.boolean({ message: "require_sso_for_staff must be true or false" }),
  ),
});
export type SignInSettingsInput = z.infer<typeof signInSettingsSchema>;
