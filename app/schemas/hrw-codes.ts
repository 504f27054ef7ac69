/**
 * The value lists and wording of high-risk work licence assessments, each defined here once.
 * No zod and no server code: pages, models and schemas all read it (docs/decisions/011 gives
 * the sources and what each state may change).
 */
import { formatDate } from "~/utils/format";

/** The national high-risk work licence classes for dogging, rigging and cranes. */
export const LICENCE_CLASSES = {
  DG: "Dogging",
  RB: "Basic rigging",
  RI: "Intermediate rigging",
  RA: "Advanced rigging",
  CN: "Non-slewing mobile crane (over 3 t)",
  C2: "Slewing mobile crane (up to 20 t)",
  C6: "Slewing mobile crane (up to 60 t)",
  C1: "Slewing mobile crane (up to 100 t)",
  C0: "Slewing mobile crane (over 100 t)",
  CT: "Tower crane",
  CS: "Self-erecting tower crane",
  CD: "Derrick crane",
  CP: "Portal boom crane",
  CB: "Bridge and gantry crane",
  CV: "Vehicle loading crane",
} as const;
export type LicenceClass = keyof typeof LICENCE_CLASSES;
export const LICENCE_CLASS_CODES = Object.keys(LICENCE_CLASSES) as LicenceClass[];

/** Classes a candidate must already hold, unless the course names its own list. */
export const DEFAULT_PREREQUISITES: Partial<Record<LicenceClass, LicenceClass[]>> = {
  RB: ["DG"],
  RI: ["RB"],
  RA: ["RI"],
};

/** A course's prerequisite classes: its own list (JSON text), else the defaults of its class. */
export function prerequisitesOf(course: { licence_class: string | null; licence_prerequisites: string | null }): LicenceClass[] {
  if (!course.licence_class) return [];
  if (course.licence_prerequisites !== null) {
    try {
      const list: unknown = JSON.parse(course.licence_prerequisites);
      if (Array.isArray(list)) return list.filter((v): v is LicenceClass => typeof v === "string" && v in LICENCE_CLASSES);
    } catch {
      // an unreadable list falls back to the defaults
    }
  }
  return DEFAULT_PREREQUISITES[course.licence_class as LicenceClass] ?? [];
}

/** The states and territories whose WHS regulator accredits assessors and issues licences. */
export const HRW_STATES = {
  ACT: "WorkSafe ACT",
  NSW: "SafeWork NSW",
  NT: "NT WorkSafe",
  QLD: "Workplace Health and Safety Queensland",
  SA: "SafeWork SA",
  TAS: "WorkSafe Tasmania",
  VIC: "WorkSafe Victoria",
  WA: "WorkSafe WA",
} as const;
export type HrwState = keyof typeof HRW_STATES;
export const HRW_STATE_CODES = Object.keys(HRW_STATES) as HrwState[];

/**
 * The rules a state's regulator may set, by name: what code reads (app/models/hrw/hrw-rules.server.ts)
 * and what the rules page edits. Which states set which rule, with what value and from when, is
 * data (table hrw_rules, seeded with its sources); no code asks which state it is.
 */
export const HRW_RULES = {
  notice_business_days: { label: "Notice to the regulator before each assessment", kind: "number" },
  notice_each_part_day: { label: "A notice for each part held on a non-consecutive day, reassessments included", kind: "flag" },
  booking_lead_days: { label: "Scheduled with the regulator at least this long ahead", kind: "number" },
  change_lead_hours: { label: "Changes to a scheduled assessment at least this long ahead", kind: "number" },
  aen_required: { label: "Assessment enrolment number (AEN) needed before a result", kind: "flag" },
  aen_format: { label: "Assessment enrolment number format", kind: "pattern" },
  assessor_change_report_days: { label: "Tell the regulator when an assessor stops, within", kind: "number" },
  accreditation_exact_classes: { label: "An accreditation covers only the classes it lists", kind: "flag" },
  currency_assessments: { label: "Assessor currency: assessments per class", kind: "number" },
  currency_hours: { label: "Assessor currency: hours per class", kind: "number" },
  currency_years: { label: "Assessor currency: counted over", kind: "number" },
  nsa_application_days: { label: "The candidate applies for the licence within", kind: "number" },
  apply_where: { label: "Where the candidate applies", kind: "text" },
  annual_audit_due: { label: "Annual independent audit due by", kind: "month_day" },
} as const satisfies Record<string, { label: string; kind: "number" | "flag" | "pattern" | "text" | "month_day" }>;
export type HrwRuleName = keyof typeof HRW_RULES;
export const HRW_RULE_NAMES = Object.keys(HRW_RULES) as HrwRuleName[];

/**
 * What a higher class's accreditation also covers where the state's rules do not say an
 * accreditation covers exactly its listed classes: the lower classes of the same ladder (an
 * advanced rigger's licence includes intermediate and basic rigging; a larger slewing crane
 * class includes the smaller ones).
 */
export const IMPLIED_CLASSES: Partial<Record<LicenceClass, LicenceClass[]>> = {
  RA: ["RI", "RB"],
  RI: ["RB"],
  C0: ["C1", "C6", "C2"],
  C1: ["C6", "C2"],
  C6: ["C2"],
};

/** A delivery location's state (its AVETMISS code) as the regulator whose rules apply there. */
export const LOCATION_STATE_REGULATOR: Record<string, HrwState> = {
  "01": "NSW",
  "02": "VIC",
  "03": "QLD",
  "04": "SA",
  "05": "WA",
  "06": "TAS",
  "07": "NT",
  "08": "ACT",
};

/** Evidence of identity: each document sighted scores its points; 100 in all is enough. */
export const IDENTITY_DOCUMENTS = {
  birth_certificate: { label: "Australian birth certificate", points: 70 },
  passport: { label: "Australian passport", points: 70 },
  citizenship_certificate: { label: "Australian citizenship certificate", points: 70 },
  foreign_passport: { label: "Foreign passport with visa", points: 70 },
  driver_licence: { label: "Australian driver licence (photo)", points: 40 },
  photo_card: { label: "Proof of age or photo card", points: 40 },
  medicare_card: { label: "Medicare card", points: 25 },
  bank_card: { label: "Bank or credit card", points: 25 },
  utility_bill: { label: "Utility bill or rates notice with current address", points: 25 },
  concession_card: { label: "Centrelink or DVA card", points: 25 },
} as const;
export type IdentityDocument = keyof typeof IDENTITY_DOCUMENTS;
export const IDENTITY_DOCUMENT_CODES = Object.keys(IDENTITY_DOCUMENTS) as IdentityDocument[];
export const IDENTITY_POINTS_NEEDED = 100;

export function identityPoints(documents: readonly string[]): number {
  return [...new Set(documents)].reduce((sum, code) => sum + (IDENTITY_DOCUMENTS[code as IdentityDocument]?.points ?? 0), 0);
}

/** Candidates are assessed from this age, reached on the assessment date. */
export const MINIMUM_AGE = 18;

/** The parts of the National Assessment Instrument. */
export const NAI_PARTS = { knowledge: "Knowledge", calculations: "Calculations", practical: "Practical" } as const;
export type NaiPart = keyof typeof NAI_PARTS;
export const NAI_PART_CODES = Object.keys(NAI_PARTS) as NaiPart[];

export const NAI_RESULTS = { satisfactory: "Satisfactory", not_yet_satisfactory: "Not yet satisfactory" } as const;
export type NaiResult = keyof typeof NAI_RESULTS;
export const NAI_RESULT_CODES = Object.keys(NAI_RESULTS) as NaiResult[];

/** The candidate lodges the NSA with the regulator within this many days, where the state's rules set no window. */
export const NSA_APPLICATION_DAYS = 60;
/** Reminder mails go this many days before the application deadline. */
export const REMINDER_DAYS_BEFORE = [14, 3] as const;
/** Dashboards warn this many days before an accreditation or an assessor's licence expires. */
export const EXPIRY_WARNING_DAYS = 60;

/** Where a booking stands, in workflow order. */
export const HRW_STAGES = {
  notice_due: "Regulator notice due",
  booked: "Booked",
  in_progress: "Being assessed",
  not_yet_satisfactory: "Not yet satisfactory",
  satisfactory: "Satisfactory, NSA to issue",
  nsa_issued: "NSA issued",
} as const;
export type HrwStage = keyof typeof HRW_STAGES;

/** The latest result of each NAI part in words (the audit CSV). */
export function partsText(parts: Partial<Record<NaiPart, { result: NaiResult; assessed_on: string }>>): string {
  return NAI_PART_CODES.map((p) => `${NAI_PARTS[p]}: ${parts[p] ? `${NAI_RESULTS[parts[p]!.result]} ${parts[p]!.assessed_on}` : "not assessed"}`).join("; ");
}

/** The accreditation each part's latest result was recorded under, for the audit: "Knowledge: NSW-1; …". */
export function partAccreditationsText(parts: Partial<Record<NaiPart, { accreditation_number: string | null }>>): string {
  return NAI_PART_CODES.filter((p) => parts[p])
    .map((p) => `${NAI_PARTS[p]}: ${parts[p]!.accreditation_number ?? "none (changed on appeal)"}`)
    .join("; ");
}

/** A calendar date as people read it (12 Dec 2026): the portal's one date format (utils/format). */
export function hrwDate(date: string): string {
  return formatDate(date, date);
}

export const HRW_MESSAGES = {
  notCovered: (licenceClass: string, date: string) => `Your accreditation does not cover ${licenceClass} on ${hrwDate(date)}`,
  notYourAssessment: "Only the assessor booked for this assessment can record its results",
  noticeMissing: (date: string) => `Record the regulator's notice reference first (due by ${hrwDate(date)})`,
  notAllSatisfactory: "An NSA can be issued only when all three parts are satisfactory",
  nsaTaken: "Another assessment already has this NSA number",
  nsaAlready: "This assessment already has its NSA",
  noLicenceClass: "That course leads to no high-risk work licence",
  notATrainer: "The assessor must be an active trainer",
  noLocationState: "Choose the state: the delivery location has none on record",
  accreditationLapsed: (date: string) => `The assessor's accreditation does not cover this class on ${hrwDate(date)}: results will be refused until it does`,
  notAStudent: "The candidate must be an active student",
  resultBeforeDate: "A part cannot be assessed before the booked assessment date",
  accreditationTaken: "This regulator already lists that accreditation number for another assessor",
  periodTaken: (date: string) => `This accreditation already has a period starting on ${hrwDate(date)}`,
  expiryBeforeStart: "The expiry date cannot be before the start date",
  checksMissing: (missing: string[]) => `The candidate's checks are incomplete: ${missing.join("; ")}`,
  notifyBy: (date: string) => `Notify the regulator by ${hrwDate(date)}`,
  applyBy: (licenceClass: string, date: string) => `Apply for your ${licenceClass} licence by ${hrwDate(date)}`,
  bookingLead: (days: number, earliest: string) =>
    `This state's regulator needs the assessment scheduled at least ${days} days ahead: the earliest date is ${hrwDate(earliest)}`,
  changeLead: (hours: number) => `This state's regulator takes changes at least ${hours} hours before the assessment starts: it is too late to move it`,
  resultsRecorded: "Results are recorded for this assessment: book a new one instead of moving it",
  noticeBeforeBooking: "A notice cannot be for a day before the booked assessment date",
  noticeSentFuture: "The day the notice was given cannot be in the future",
  noticeLate: (heldOn: string, due: string) => `A notice for ${hrwDate(heldOn)} had to be given by ${hrwDate(due)}: hold the part on a later day`,
  noticeTaken: (heldOn: string) => `A notice for ${hrwDate(heldOn)} is already recorded`,
  dayNotice: (day: string) => `Record the regulator's notice for ${hrwDate(day)} first: each part held on a non-consecutive day needs its own`,
  reassessmentNotice: (day: string) => `Record the regulator's notice for ${hrwDate(day)} first: a reassessment needs its own notice`,
  resultInFuture: "The date assessed cannot be in the future",
  aenAfterAssessment: (recordedOn: string) =>
    `The candidate's assessment enrolment number (AEN) was recorded on ${hrwDate(recordedOn)}: this state's regulator needs it before the assessment, so a part assessed before then cannot be recorded`,
  noticeSentBeforeBooked: (bookedOn: string) => `The day the notice was given cannot be before the assessment was booked (${hrwDate(bookedOn)})`,
  noticeWouldBeLate: (due: string) => `The regulator's notice for this date had to be given by ${hrwDate(due)}: it would be late. Choose a later date`,
  scheduledDayNotice: (day: string) =>
    `Record the regulator's scheduling for ${hrwDate(day)} first: this state's regulator schedules each assessment day ahead, and a part held on a day not scheduled is not covered`,
  periodBackwards: "The end is before the start: choose a To date on or after the From date",
  noAssessmentsInYear: (state: string, year: number) => `No HRW assessments for ${state} in ${year}`,
  aenMissing: "Record the candidate's assessment enrolment number (AEN) on their checks first: this state's regulator needs it before a result",
  aenFormat: "The assessment enrolment number (AEN) is not in the regulator's format",
  aenNotAsked: "This state's regulator does not ask for an assessment enrolment number",
};
