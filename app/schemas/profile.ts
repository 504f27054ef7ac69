import { z } from "zod";
import { address, optionalText, phone, usi } from "./fields";

/** The contact details and USI a student may change on their own profile (Edit Profile). */
export const profileSchema = z.object({
  phone,
  address,
  emergency_contact: optionalText("Emergency contact"),
  /** left out, the USI stays as it is; blank clears it */
  usi: usi.optional(),
});
export type ProfileInput = z.infer<typeof profileSchema>;
