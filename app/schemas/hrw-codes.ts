/**
 * The value lists and wording of high-risk work licence assessments, each defined here once.
 * No zod and no server code: pages, models and schemas all read it (docs/decisions/011 gives
 * the sources and what each state may change).
 */

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

/** The candidate lodges the NSA with the regulator within this many days. */
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

const AU_DATE = new Intl.DateTimeFormat("en-AU", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
/** A calendar date as the regulator's letters write it (12 Dec 2026). */
export function hrwDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : AU_DATE.format(d);
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
  notAStudent: "The candidate must be an active student",
  resultBeforeDate: "A part cannot be assessed before the booked assessment date",
  accreditationTaken: "This regulator already lists that accreditation number for another assessor",
  periodTaken: (date: string) => `This accreditation already has a period starting on ${hrwDate(date)}`,
  expiryBeforeStart: "The expiry date cannot be before the start date",
  checksMissing: (missing: string[]) => `The candidate's checks are incomplete: ${missing.join("; ")}`,
  notifyBy: (date: string) => `Notify the regulator by ${hrwDate(date)}`,
  applyBy: (licenceClass: string, date: string) => `Apply for your ${licenceClass} licence by ${hrwDate(date)}`,
};
