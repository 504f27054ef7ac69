import { z } from "zod";
import {
  ADDRESS_LIMITS,
  codesOf,
  COUNTRIES,
  LANGUAGES,
  DISABILITY_TYPES,
  HIGHEST_SCHOOL_LEVEL,
  INDIGENOUS_STATUS,
  LABOUR_FORCE_STATUS,
  POSTCODE_PATTERN,
  PRIOR_EDUCATION_TYPES,
  SEX,
  STATES,
  SURVEY_CONTACT_STATUS,
  YES_NO,
  type CodeOption,
} from "./avetmiss-codes";
import { dateOfBirth, optionalText } from "~/schemas/fields";

/**
 * A learner's AVETMISS details as the student ("My enrolment details") and the training
 * office (Edit Student, PUT /api/admin/students/{id}) give them. Every answer is optional:
 * blank (the form's "Not stated") is stored as null. No defaults live here, so a partial
 * update leaves out what it does not send.
 */

/** One answer from a code list; blank is "not stated". */
const coded = (options: readonly CodeOption[], label: string) =>
  z
    .union([z.enum(codesOf(options)), z.literal("")], { error: `${label}: choose one of the listed answers` })
    .nullish()
    .transform((v) => (v ? v : null));

/** An ABS 4-digit code (country, language) from its complete classification; any other code is refused. */
const absCode = (options: readonly CodeOption[], label: string) => {
  const known = new Set(options.map((o) => o.code));
  return z
    .string({ message: `${label}: choose one of the listed answers` })
    .trim()
    .refine((v) => v === "" || known.has(v), `${label}: choose one of the listed answers (an ABS code this classification has)`)
    .nullish()
    .transform((v) => (v ? v : null));
};

/** Several answers from a code list (tick boxes): each listed once, in the list's order. */
const codedList = (options: readonly CodeOption[], label: string) =>
  z
    .array(z.enum(codesOf(options), { error: `${label}: choose from the listed answers` }), { error: `${label} must be a list` })
    .max(options.length)
    .transform((codes) => options.map((o) => o.code).filter((c) => codes.includes(c as never)))
    .optional();

export const postcode = z
  .string({ message: "Postcode must be text" })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => v === "" || POSTCODE_PATTERN.test(v), "Enter a 4-digit postcode (OSPC for an address overseas)")
  .nullish()
  .transform((v) => (v ? v : null));

export const avetmissShape = {
  sex: coded(SEX, "Sex"),
  address_building: optionalText("Building or property name", ADDRESS_LIMITS.address_building),
  address_unit: optionalText("Flat or unit", ADDRESS_LIMITS.address_unit),
  address_street_number: optionalText("Street number", ADDRESS_LIMITS.address_street_number),
  address_street_name: optionalText("Street name", ADDRESS_LIMITS.address_street_name),
  suburb: optionalText("Suburb, locality or town", ADDRESS_LIMITS.suburb),
  postcode,
  state: coded(STATES, "State"),
  country_of_birth: absCode(COUNTRIES, "Country of birth"),
  language_at_home: absCode(LANGUAGES, "Main language at home"),
  indigenous_status: coded(INDIGENOUS_STATUS, "Aboriginal or Torres Strait Islander origin"),
  labour_force_status: coded(LABOUR_FORCE_STATUS, "Employment status"),
  highest_school_level: coded(HIGHEST_SCHOOL_LEVEL, "Highest school level completed"),
  at_school: coded(YES_NO, "Still at secondary school"),
  disability: coded(YES_NO, "Disability, impairment or long-term condition"),
  disability_types: codedList(DISABILITY_TYPES, "Disability types"),
  prior_education: coded(YES_NO, "Completed qualifications"),
  prior_education_types: codedList(PRIOR_EDUCATION_TYPES, "Qualifications completed"),
  survey_contact_status: coded(SURVEY_CONTACT_STATUS, "Survey contact status"),
};

export const AVETMISS_FIELDS = Object.keys(avetmissShape) as Array<keyof typeof avetmissShape>;
export type AvetmissInput = z.infer<z.ZodObject<typeof avetmissShape>>;

/** The student's own "My enrolment details" form: the details and their date of birth. */
export const enrollmentDetailsSchema = z.object({ ...avetmissShape, date_of_birth: dateOfBirth });
export type EnrollmentDetailsInput = z.infer<typeof enrollmentDetailsSchema>;

/** The tick-box lists of a submitted form as arrays (none ticked is an empty list). */
export function avetmissListsFromForm(form: FormData): Pick<AvetmissInput, "disability_types" | "prior_education_types"> {
  const all = (name: string) => form.getAll(name).filter((v): v is string => typeof v === "string");
  return { disability_types: all("disability_types"), prior_education_types: all("prior_education_types") };
}
