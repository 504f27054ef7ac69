import { z } from "zod";
import { optionalText, phone } from "./fields";

/** The contact details a student may change on their own profile (Edit Profile). */
export const profileSchema = z.object({
  phone,
  address: optionalText("Address", 500),
  emergency_contact: optionalText("Emergency contact"),
});
export type ProfileInput = z.infer<typeof profileSchema>;
