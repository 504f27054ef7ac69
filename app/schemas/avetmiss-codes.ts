/**
 * The AVETMISS 8.0 code lists the portal collects and reports, each once: the forms show the
 * labels, the NAT files carry the codes. No zod here, so pages import it without shipping the
 * validation library to the browser; app/schemas/avetmiss.ts builds the schemas from these.
 *
 * A value left unanswered is stored as null and written as the standard's "not stated"
 * (`@` to the field's width) where the standard allows it.
 */

import { SACC_COUNTRIES } from "./avetmiss-countries";
import { ASCL_LANGUAGES } from "./avetmiss-languages";

export interface CodeOption<C extends string = string> {
  readonly code: C;
  readonly label: string;
}

const list = <const T extends readonly CodeOption[]>(options: T) => options;

export const SEX = list([
  { code: "M", label: "Male" },
  { code: "F", label: "Female" },
  { code: "X", label: "Another term (non-binary, gender diverse)" },
]);

export const STATES = list([
  { code: "01", label: "New South Wales" },
  { code: "02", label: "Victoria" },
  { code: "03", label: "Queensland" },
  { code: "04", label: "South Australia" },
  { code: "05", label: "Western Australia" },
  { code: "06", label: "Tasmania" },
  { code: "07", label: "Northern Territory" },
  { code: "08", label: "Australian Capital Territory" },
  { code: "09", label: "Other Australian territory" },
  { code: "99", label: "Overseas" },
]);

/** "code name" lines (countries.ts, languages.ts) as options, the given codes first, the rest by name. */
function classification(lines: string, first: Record<string, string>): CodeOption[] {
  const all = lines
    .trim()
    .split("\n")
    .map((line) => ({ code: line.slice(0, 4), label: first[line.slice(0, 4)] ?? line.slice(5) }));
  const top = Object.keys(first).map((code) => all.find((o) => o.code === code)!);
  const rest = all.filter((o) => !(o.code in first)).sort((a, b) => a.label.localeCompare(b.label, "en-AU"));
  return [...top, ...rest];
}

/** Country of birth (ABS SACC, 4 digits): every country of the classification. */
export const COUNTRIES: readonly CodeOption[] = classification(SACC_COUNTRIES, { "1101": "Australia" });

/** The country of an Australian delivery location or address. */
export const AUSTRALIA = "1101";

/** Main language spoken at home (ABS ASCL, 4 digits): every language of the classification; 1201 is English only. */
export const LANGUAGES: readonly CodeOption[] = classification(ASCL_LANGUAGES, { "1201": "English only" });

export const INDIGENOUS_STATUS = list([
  { code: "1", label: "Yes, Aboriginal" },
  { code: "2", label: "Yes, Torres Strait Islander" },
  { code: "3", label: "Yes, both Aboriginal and Torres Strait Islander" },
  { code: "4", label: "No, neither" },
]);

export const LABOUR_FORCE_STATUS = list([
  { code: "01", label: "Full-time employee" },
  { code: "02", label: "Part-time employee" },
  { code: "03", label: "Self-employed, not employing others" },
  { code: "04", label: "Employer" },
  { code: "05", label: "Employed, unpaid worker in a family business" },
  { code: "06", label: "Unemployed, seeking full-time work" },
  { code: "07", label: "Unemployed, seeking part-time work" },
  { code: "08", label: "Not employed, not seeking employment" },
]);

export const HIGHEST_SCHOOL_LEVEL = list([
  { code: "12", label: "Year 12 or equivalent" },
  { code: "11", label: "Year 11 or equivalent" },
  { code: "10", label: "Year 10 or equivalent" },
  { code: "09", label: "Year 9 or equivalent" },
  { code: "08", label: "Year 8 or below" },
  { code: "02", label: "Never attended school" },
]);

export const YES_NO = list([
  { code: "Y", label: "Yes" },
  { code: "N", label: "No" },
]);

export const DISABILITY_TYPES = list([
  { code: "11", label: "Hearing/deaf" },
  { code: "12", label: "Physical" },
  { code: "13", label: "Intellectual" },
  { code: "14", label: "Learning" },
  { code: "15", label: "Mental illness" },
  { code: "16", label: "Acquired brain impairment" },
  { code: "17", label: "Vision" },
  { code: "18", label: "Medical condition" },
  { code: "19", label: "Other" },
  { code: "99", label: "Not specified" },
]);

export const PRIOR_EDUCATION_TYPES = list([
  { code: "008", label: "Bachelor degree or higher" },
  { code: "410", label: "Advanced diploma or associate degree" },
  { code: "420", label: "Diploma (or associate diploma)" },
  { code: "511", label: "Certificate IV (or advanced certificate/technician)" },
  { code: "514", label: "Certificate III (or trade certificate)" },
  { code: "521", label: "Certificate II" },
  { code: "524", label: "Certificate I" },
  { code: "990", label: "Certificates other than the above" },
]);

export const SURVEY_CONTACT_STATUS = list([
  { code: "A", label: "Available for survey use" },
  { code: "C", label: "Correctional facility" },
  { code: "D", label: "Deceased" },
  { code: "E", label: "Excluded from survey use" },
  { code: "I", label: "Invalid address or itinerant" },
  { code: "M", label: "Minor (under 15)" },
  { code: "O", label: "Overseas" },
]);

export type Code<L extends readonly CodeOption[]> = L[number]["code"];

export const codesOf = <L extends readonly CodeOption[]>(options: L) => options.map((o) => o.code) as unknown as [Code<L>, ...Code<L>[]];

/** The label of a code, or the code itself when the list does not name it (a code the office typed). */
export function labelOf(options: readonly CodeOption[], code: string | null | undefined, notStated = "Not stated"): string {
  if (code === null || code === undefined || code === "") return notStated;
  return options.find((o) => o.code === code)?.label ?? `Code ${code}`;
}

/** Postcodes: four digits, or OSPC for an address overseas. */
export const POSTCODE_PATTERN = /^(\d{4}|OSPC)$/;
export { NOT_STATED } from "./avetmiss-not-stated";

/** The longest value each address part can hold: the width of its field in the NAT files. */
export const ADDRESS_LIMITS = {
  address_building: 50,
  address_unit: 30,
  address_street_number: 15,
  address_street_name: 70,
  suburb: 50,
} as const;

/** A delivery location's identifier: the width of its NAT field. */
export const LOCATION_IDENTIFIER_MAX = 10;
