import {
  COUNTRIES,
  DISABILITY_TYPES,
  HIGHEST_SCHOOL_LEVEL,
  INDIGENOUS_STATUS,
  LABOUR_FORCE_STATUS,
  LANGUAGES,
  labelOf,
  NOT_STATED,
  PRIOR_EDUCATION_TYPES,
  SEX,
  STATES,
  SURVEY_CONTACT_STATUS,
  YES_NO,
} from "~/schemas/avetmiss-codes";
import type { AvetmissDetails } from "~/models/avetmiss-details.server";
import { formatDate } from "~/utils/format";

/** One line of the residential address from its parts, or null when none is given. */
export function streetAddress(
  d: Pick<AvetmissDetails, "address_building" | "address_unit" | "address_street_number" | "address_street_name" | "suburb" | "postcode" | "state">,
): string | null {
  const street = [d.address_unit ? `${d.address_unit}/` : "", d.address_street_number ?? "", d.address_street_number ? " " : "", d.address_street_name ?? ""]
    .join("")
    .trim();
  const place = [d.suburb, d.state ? labelOf(STATES, d.state) : null, d.postcode].filter(Boolean).join(" ");
  const parts = [d.address_building, street, place].filter((p) => p && p.length > 0);
  return parts.length ? parts.join(", ") : null;
}

/** A learner's enrolment details as lines of label and value (the codes stay in the NAT files). */
export type EnrollmentDetailRows = Array<[string, string]>;

/**
 * The lines EnrollmentDetailsList shows. A page that shows them alone (the learner's profile)
 * calls this in its loader and sends the lines, so its scripts carry no code lists
 * (docs/decisions/043-a-first-visit-on-a-slow-phone.md).
 */
export function enrollmentDetailRows(details: AvetmissDetails, dateOfBirth?: string | null): EnrollmentDetailRows {
  const list = (codes: string[], options: typeof DISABILITY_TYPES | typeof PRIOR_EDUCATION_TYPES) =>
    codes.length ? codes.map((c) => labelOf(options, c)).join("; ") : null;
  const rows: Array<[string, string]> = [
    ...(dateOfBirth === undefined ? [] : ([["Date of birth", formatDate(dateOfBirth, NOT_STATED)]] as Array<[string, string]>)),
    ["Sex", labelOf(SEX, details.sex)],
    ["Residential address", streetAddress(details) ?? NOT_STATED],
    ["Country of birth", labelOf(COUNTRIES, details.country_of_birth)],
    ["Main language at home", labelOf(LANGUAGES, details.language_at_home)],
    ["Aboriginal or Torres Strait Islander origin", labelOf(INDIGENOUS_STATUS, details.indigenous_status)],
    ["Employment status", labelOf(LABOUR_FORCE_STATUS, details.labour_force_status)],
    ["Highest school level completed", labelOf(HIGHEST_SCHOOL_LEVEL, details.highest_school_level)],
    ["Still at secondary school", labelOf(YES_NO, details.at_school)],
    [
      "Disability",
      details.disability === "Y" ? `Yes: ${list(details.disability_types, DISABILITY_TYPES) ?? "not specified"}` : labelOf(YES_NO, details.disability),
    ],
    [
      "Completed qualifications",
      details.prior_education === "Y" ? `Yes: ${list(details.prior_education_types, PRIOR_EDUCATION_TYPES)}` : labelOf(YES_NO, details.prior_education),
    ],
    ["Survey contact status", labelOf(SURVEY_CONTACT_STATUS, details.survey_contact_status)],
  ];
  return rows;
}
