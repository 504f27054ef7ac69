import { z } from "zod";
import { AUSTRALIA, codesOf, COUNTRIES, LOCATION_IDENTIFIER_MAX, STATES } from "~/schemas/avetmiss-codes";
import { postcode } from "~/schemas/avetmiss-details";
import { optionalText, requiredText } from "./fields";

/**
 * A delivery location as an administrator adds or edits it (Delivery Locations). The
 * identifier is the NAT delivery location identifier, so it fits its 10-character field and
 * is written in capitals and digits.
 */
const COUNTRY_CODES = new Set(COUNTRIES.map((c) => c.code));

export const locationSchema = z.object({
  identifier: requiredText("Identifier", LOCATION_IDENTIFIER_MAX)
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9-]+$/.test(v), "Identifier may use only letters, digits and hyphens"),
  name: requiredText("Name", 100),
  suburb: optionalText("Suburb, locality or town", 50),
  postcode,
  state: z
    .union([z.enum(codesOf(STATES)), z.literal("")], { error: "State: choose one of the listed answers" })
    .nullish()
    .transform((v) => (v ? v : null)),
  country: z
    .string({ message: "Country must be a 4-digit ABS code" })
    .trim()
    .refine((v) => v === "" || COUNTRY_CODES.has(v), "Country must be a country code of the ABS classification (1101 for Australia)")
    .nullish()
    .transform((v) => (v ? v : AUSTRALIA)),
});
export type LocationInput = z.infer<typeof locationSchema>;
