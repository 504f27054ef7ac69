import { z } from "zod";
import { organisationToday } from "~/utils/organisation-calendar";
import { parseWith } from "~/utils/validation";
import { blankOr, calendarDate, chosenId, optionalCalendarDate, optionalText, requiredText, uuid } from "./fields";
import {
  HRW_MESSAGES,
  HRW_RULE_NAMES,
  HRW_RULES,
  HRW_STATE_CODES,
  type HrwRuleName,
  type HrwState,
  IDENTITY_DOCUMENT_CODES,
  LICENCE_CLASS_CODES,
  NAI_PART_CODES,
  NAI_RESULT_CODES,
} from "./hrw-codes";

/**
 * The forms and /api payloads of high-risk work licence assessments, one schema each; the
 * rules that need the database (coverage, checks, notice, 100 points) are the models'.
 */

const optionalDate = optionalCalendarDate;

/** One value or several of a form's checkboxes, as a list. */
const list = <T extends z.ZodType>(item: T, message: string) =>
  z.preprocess((v) => (typeof v === "string" ? [v] : v), z.array(item, { message }).max(30, message));

export const licenceClass = z.enum(LICENCE_CLASS_CODES, { message: "Choose a licence class from the list" });
export const hrwState = z.enum(HRW_STATE_CODES, { message: "Choose a state or territory from the list" });

/** The licence fields of a course (course form and PUT /api/admin/courses/{id}). */
export const courseLicenceFields = {
  licence_class: blankOr(licenceClass),
  /** empty: the class's default prerequisites */
  licence_prerequisites: list(licenceClass, "Prerequisite classes must be licence classes").optional(),
};

/** A regulator told of an assessor's change: the reference it gave (or how it was told). */
export const regulatorTaskDoneSchema = z.object({ task_id: uuid, reference: requiredText("Reference", 120) });

/** Removing one accreditation from the register. */
export const accreditationRemovalSchema = z.object({ accreditation_id: uuid });

/** One period of an accreditation: a renewal is the same number again with its own start. */
export const accreditationSchema = z
  .object({
    regulator: hrwState,
    number: requiredText("Accreditation number", 40),
    classes: list(licenceClass, "Choose the classes the accreditation covers").refine((v) => v.length > 0, "Choose the classes the accreditation covers"),
    starts_on: calendarDate("Start date"),
    expires_on: calendarDate("Expiry date"),
  })
  .refine((v) => v.starts_on <= v.expires_on, {
    message: HRW_MESSAGES.expiryBeforeStart,
    path: ["expires_on"],
    // said beside the other fields' messages, as long as both dates are dates
    when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === "starts_on" || issue.path?.[0] === "expires_on"),
  });
export type AccreditationInput = z.infer<typeof accreditationSchema>;

export const assessorLicenceSchema = z.object({
  licence_number: optionalText("Licence number", 40),
  licence_expires_on: optionalDate("Licence expiry"),
});
export type AssessorLicenceInput = z.infer<typeof assessorLicenceSchema>;

/** Whether `value` is a valid value for a rule of `kind`; a message when not. */
export function ruleValueProblem(kind: (typeof HRW_RULES)[HrwRuleName]["kind"], value: string): string | null {
  if (kind === "number")
    return value === "" || /^\d{1,4}$/.test(value) ? null : "Enter a whole number, or leave it blank when the state does not set this rule";
  if (kind === "flag") return value === "yes" || value === "no" ? null : "Choose yes or no";
  if (kind === "month_day") return /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(value) ? null : "Enter the month and day as MM-DD";
  if (kind === "pattern") {
    try {
      new RegExp(value);
      return value.startsWith("^") && value.endsWith("$") ? null : "A pattern starts with ^ and ends with $ (the whole number must match)";
    } catch {
      return "That is not a pattern the portal can read";
    }
  }
  return value === "" ? "Enter the rule's words" : null;
}

/** An edit of one state's rule: the new value, from when, and why. */
export const ruleEditSchema = z
  .object({
    state: hrwState,
    rule: z.enum(HRW_RULE_NAMES, { message: "Choose a rule from the list" }),
    value: z.string({ message: "Enter the rule's value" }).trim().max(200, "Value must be at most 200 characters"),
    in_force_from: calendarDate("In force from"),
    reason: requiredText("Reason", 500),
    source: optionalText("Source", 500),
  })
  .superRefine((v, ctx) => {
    const problem = ruleValueProblem(HRW_RULES[v.rule].kind, v.value);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["value"] });
  });
export type RuleEditInput = z.infer<typeof ruleEditSchema>;

export const ageCheckSchema = z.object({
  date_of_birth: calendarDate("Date of birth").refine((v) => v < organisationToday(), "Date of birth must be in the past"),
});
export const identityCheckSchema = z.object({
  documents: list(z.enum(IDENTITY_DOCUMENT_CODES, { message: "Choose documents from the list" }), "Choose the documents sighted"),
});
/** The candidate's assessment enrolment number for a state's regulator (its format is the state's rule). */
export const aenCheckSchema = z.object({
  state: hrwState,
  aen: z
    .string({ message: "Assessment enrolment number is required" })
    .trim()
    .toUpperCase()
    .min(1, "Assessment enrolment number is required")
    .max(40, "Assessment enrolment number must be at most 40 characters"),
});
export const prerequisiteCheckSchema = z.object({
  licence_class: licenceClass,
  licence_number: requiredText("Licence number", 40),
  expires_on: calendarDate("Licence expiry"),
});

const startTime = z
  .string({ message: "Start time is required" })
  .trim()
  .refine((v) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v), "Enter the start time as HH:MM");

export const bookingSchema = z.object({
  candidate_id: chosenId("Choose the candidate"),
  course_id: chosenId("Choose the course"),
  state: blankOr(hrwState).describe("Whose regulator issues the licence; blank or left out: the delivery location's state"),
  assessment_date: calendarDate("Assessment date"),
  start_time: startTime,
  location_id: chosenId("Choose the delivery location"),
  assessor_id: chosenId("Choose the assessor"),
  plant_description: requiredText("Plant description", 200),
  plant_registration: requiredText("Plant registration or serial number", 60),
  hours: z
    .union([z.number(), z.string(), z.null()], { message: "Hours must be a number" })
    .optional()
    .transform((v, ctx) => {
      const text = typeof v === "string" ? v.trim() : v;
      if (text === "" || text === null || text === undefined) return null;
      const n = typeof text === "number" ? text : /^\d{1,2}(\.\d{1,2})?$/.test(text) ? Number(text) : Number.NaN;
      if (!(n >= 0.5 && n <= 24)) {
        ctx.addIssue({ code: "custom", message: "Hours must be a number from 0.5 to 24" });
        return z.NEVER;
      }
      return n;
    })
    .describe("Hours booked for the assessment (counts towards the assessor's currency)"),
});
export type BookingInput = Omit<z.infer<typeof bookingSchema>, "hours" | "state"> & { hours?: number | null; state?: HrwState | null };

/** A notice given to the regulator: for the booked day unless `held_on` says another, given today unless `sent_on` says. */
export const noticeSchema = z.object({
  notice_reference: requiredText("Notice reference", 60),
  held_on: optionalDate("Day the notice is for"),
  sent_on: optionalDate("Day the notice was given"),
});
export type NoticeInput = { notice_reference: string; held_on?: string | null; sent_on?: string | null };
export const rescheduleSchema = z.object({ assessment_date: calendarDate("Assessment date"), start_time: startTime });
export type RescheduleInput = z.infer<typeof rescheduleSchema>;
export const partResultSchema = z.object({
  part: z.enum(NAI_PART_CODES, { message: "Part must be knowledge, calculations or practical" }),
  result: z.enum(NAI_RESULT_CODES, { message: "Result must be satisfactory or not_yet_satisfactory" }),
  assessed_on: calendarDate("Date assessed"),
});
export type PartResultInput = z.infer<typeof partResultSchema>;
export const nsaSchema = z.object({
  nsa_number: requiredText("NSA number", 40),
  nsa_date: calendarDate("NSA date"),
});
export type NsaInput = z.infer<typeof nsaSchema>;

/** A state or territory's code in any case (a typed address's ?state=vic), read as its code. */
const stateCode = z.preprocess((v) => (typeof v === "string" ? v.trim().toUpperCase() : v), hrwState);

const periodFields = {
  from: optionalDate("From").describe("First assessment date (YYYY-MM-DD)"),
  to: optionalDate("To").describe("Last assessment date (YYYY-MM-DD)"),
};
const endNotBeforeStart = (v: { from: string | null; to: string | null }) => !v.from || !v.to || v.from <= v.to;
const backwards = { message: HRW_MESSAGES.periodBackwards, path: ["to"] };

/** The audit report's period; blank ends are open, and the end is not before the start. */
export const hrwReportQuery = z.object(periodFields).refine(endNotBeforeStart, backwards);

/** GET /api/admin/hrw-assessments: the report's period, and one state's assessments when asked. */
export const hrwAssessmentsQuery = z
  .object({
    ...periodFields,
    state: z
      .preprocess((v) => (v === "" ? undefined : v), stateCode.optional())
      .describe("Only the assessments of this state or territory's regulator (its code: NSW, QLD, VIC, WA, SA, TAS, NT, ACT)"),
  })
  .refine(endNotBeforeStart, backwards);

/** Reads ?from=&to= for the audit page, its CSV and its /api twin. */
export function readHrwPeriod(url: URL) {
  return parseWith(hrwReportQuery, { from: url.searchParams.get("from") ?? "", to: url.searchParams.get("to") ?? "" });
}

/** The yearly audit pack's state and year (?state=VIC&year=2026). */
export const auditPackQuery = z.object({
  state: stateCode,
  year: z
    .string({ message: "Year is required" })
    .trim()
    .refine((v) => /^\d{4}$/.test(v) && Number(v) >= 2000 && Number(v) <= 2100, "Enter the year as YYYY")
    .transform(Number),
});

export function readAuditPackQuery(url: URL) {
  return parseWith(auditPackQuery, { state: url.searchParams.get("state") ?? "", year: url.searchParams.get("year") ?? "" });
}
