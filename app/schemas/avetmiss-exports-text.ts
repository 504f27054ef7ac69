/**
 * The AVETMISS files the reports page offers one by one, and the wording of its year picker,
 * without zod, so the page can show them without shipping the validation library to the
 * browser (app/schemas/page-queries.ts holds the year's schema).
 */
export const AVETMISS_EXPORTS = {
  nat00020: { code: "NAT00020", label: "NAT00020 delivery locations", description: "Where training was delivered (training organisation delivery locations)." },
  nat00030: {
    code: "NAT00030",
    label: "NAT00030 qualification data",
    description: "Qualifications and skill sets (programs); empty while only units are delivered.",
  },
  nat00060: {
    code: "NAT00060",
    label: "NAT00060 unit of competency",
    description: "Units of competency (subjects) with field of education and nominal hours.",
  },
} as const;
export type AvetmissExportKey = keyof typeof AVETMISS_EXPORTS;
export const AVETMISS_EXPORT_KEYS = Object.keys(AVETMISS_EXPORTS) as [AvetmissExportKey, ...AvetmissExportKey[]];

export const YEAR_INVALID = "Enter the year as four digits, e.g. 2025";
export const YEAR_OUT_OF_RANGE = "Choose a collection year from 1980 to 2099";
/** A collection year after this one (on the organisation's calendar): nothing in it can be reported yet. */
export const yearNotYetMessage = (year: number, thisYear: number) =>
  `${year} has not begun: there is nothing to report for it yet. Choose a collection year up to ${thisYear}.`;
/** A year with no enrolment under way, finished or booked: nothing to lodge. */
export const noActivityMessage = (year: number) =>
  `No training activity in ${year}: there is nothing to report for that year (an AVETMISS lodgement needs at least one enrolment).`;
