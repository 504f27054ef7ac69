import { z } from "zod";
import { TIERS } from "#db/schema";
import { formToObject } from "~/utils/validation";
import { OFFICIAL_TITLE_MAX } from "./course-text";
import { GST_TREATMENT_CODES, GST_TREATMENT_INVALID } from "./invoice-text";
import { cleanText, optionalText, requiredText } from "./fields";
import { courseLicenceFields } from "./hrw";

/**
 * A number typed by a person or sent as JSON. Prices and hours are decimals; an empty box, or
 * text that is not a number, is refused with a message naming the field (it used to be read as
 * 0, so a cleared Duration box reported a unit of no nominal hours); so is a negative value, one
 * above `max`, and with `positive` a zero.
 */
export const decimal = (label: string, max: number, options: { positive?: boolean } = {}) =>
  z
    .union([z.number(), z.string()], {
      error: (issue) => (issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be a number`),
    })
    .transform((value, ctx) => {
      const text = typeof value === "string" ? value.trim() : null;
      if (text === "") {
        ctx.addIssue({ code: "custom", message: `${label} is required` });
        return z.NEVER;
      }
      const n = text === null ? value : /^[+]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
      if (typeof n !== "number" || !Number.isFinite(n)) {
        if (text !== null && /^-/.test(text) && Number.isFinite(Number(text))) {
          ctx.addIssue({ code: "custom", message: `${label} cannot be negative` });
        } else {
          ctx.addIssue({ code: "custom", message: `${label} must be a number` });
        }
        return z.NEVER;
      }
      if (n < 0) {
        ctx.addIssue({ code: "custom", message: `${label} cannot be negative` });
        return z.NEVER;
      }
      if (options.positive && n === 0) {
        ctx.addIssue({ code: "custom", message: `${label} must be more than 0` });
        return z.NEVER;
      }
      if (n > max) {
        ctx.addIssue({ code: "custom", message: `${label} must be at most ${max.toLocaleString("en-AU")}` });
        return z.NEVER;
      }
      return n;
    });

/** An amount in dollars with cents, as a course's price and RPL fee are typed: 0 or more, rounded to the cent. */
export const money = (label: string) => decimal(label, 1_000_000).transform((v) => Math.round(v * 100) / 100);

/** A list of short texts; blank entries are dropped before saving. */
export const textList = (label: string) =>
  z
    .array(cleanText(`Each ${label} entry`).max(500, `Each ${label} entry must be at most 500 characters`), {
      message: `${label} must be a list`,
    })
    .max(50, `${label} can have at most 50 entries`)
    .transform((items) => cleanList(items));

/** Trims each entry and drops the blank ones. */
export function cleanList(items: readonly string[]): string[] {
  return items.map((item) => item.trim()).filter((item) => item.length > 0);
}

/**
 * A course as an administrator creates or edits it (Add Course, Edit Course and
 * PUT /api/admin/courses/{id}). No defaults live here, so `courseObject.partial()` is a true
 * partial update: the status toggle can send only `is_active`.
 */
export const courseObject = z.object({
  unit_code: requiredText("Unit code", 20)
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9]+$/.test(v), "Unit code may use only letters and digits"),
  name: requiredText("Course name"),
  description: requiredText("Description", 2000, { multiline: true }),
  tier: z.enum(TIERS, { message: "Tier must be Tier 1, Tier 2 or Tier 3" }),
  /** the unit's nominal hours, which AVETMISS reports and planned end dates are counted from: never 0 */
  duration_hours: decimal("Duration", 10_000, { positive: true }),
  price: money("Price"),
  /** the fee per unit invoiced when a learner applies for RPL, charged with the course's GST treatment; 0: none; left out, 0 */
  rpl_fee: money("RPL fee").optional(),
  /** how its invoices charge GST: an accredited VET course is GST-free, anything else taxable (docs/decisions/033-invoices.md); left out, GST-free */
  gst_treatment: z.enum(GST_TREATMENT_CODES, { message: GST_TREATMENT_INVALID }).optional(),
  is_active: z.boolean({ message: "Active must be true or false" }),
  prerequisites: textList("Prerequisites"),
  learning_outcomes: textList("Learning outcomes"),
  assessment_criteria: textList("Assessment criteria"),
  /** the unit's 6-digit ASCED field of education code from training.gov.au; blank until known */
  field_of_education: z
    .string({ message: "Field of education must be a 6-digit code" })
    .trim()
    .refine((v) => v === "" || /^\d{6}$/.test(v), "Field of education must be a 6-digit code, e.g. 030717")
    .nullish()
    .transform((v) => (v ? v : null)),
  /**
   * the unit's title on the national register (training.gov.au), which NCVER matches NAT00060's
   * subject name against; the course keeps its display name. Blank until known (the reports
   * page lists the unit as not ready). At most NAT00060's 100 characters.
   */
  official_title: optionalText("Official unit title", OFFICIAL_TITLE_MAX),
  /** the NAT VET flag: vocational education and training (every licence unit is); left out, yes */
  vet_flag: z.boolean({ message: "VET must be true or false" }).optional(),
  /** the learner's pre-enrolment review confirms an enrolment (language, literacy, numeracy, digital) */
  review_required: z.boolean({ message: "Review required must be true or false" }).optional(),
  review_retake_days: z.coerce
    .number({ message: "Days before a retake must be a whole number from 0 to 365" })
    .int("Days before a retake must be a whole number from 0 to 365")
    .min(0, "Days before a retake must be a whole number from 0 to 365")
    .max(365, "Days before a retake must be a whole number from 0 to 365")
    .optional(),
  ...courseLicenceFields,
});
export type CourseInput = z.infer<typeof courseObject>;

/** Add Course: the whole course. */
export const courseCreateSchema = courseObject;

/** Edit Course: the fields its form shows (the unit code and tier are set when a course is added). */
export const courseEditSchema = courseObject.pick({
  name: true,
  description: true,
  duration_hours: true,
  price: true,
  rpl_fee: true,
  gst_treatment: true,
  learning_outcomes: true,
  assessment_criteria: true,
  field_of_education: true,
  official_title: true,
  vet_flag: true,
  review_required: true,
  review_retake_days: true,
  licence_class: true,
  licence_prerequisites: true,
});

/** The /api partial update (and the status toggle). */
export const coursePatchSchema = courseObject.partial();
export type CoursePatch = z.infer<typeof coursePatchSchema>;

export const COURSE_LISTS = ["prerequisites", "learning_outcomes", "assessment_criteria"] as const;
export type CourseListName = (typeof COURSE_LISTS)[number];

/**
 * A submitted course form as the schemas want it: repeated inputs become arrays (one entry
 * gives a one-element list, none an empty one) and the active checkbox a boolean. Lists not
 * on the form are left out rather than emptied.
 */
export function courseFormInput(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = formToObject(form);
  for (const list of COURSE_LISTS) {
    if (form.has(list) || form.has(`${list}_present`)) {
      out[list] = form.getAll(list).filter((v): v is string => typeof v === "string");
    }
    delete out[`${list}_present`];
  }
  if (form.has("is_active_present") || form.has("is_active")) {
    out.is_active = form.get("is_active") === "on" || form.get("is_active") === "true";
  }
  delete out.is_active_present;
  if (form.has("vet_flag_present") || form.has("vet_flag")) {
    out.vet_flag = form.get("vet_flag") === "on" || form.get("vet_flag") === "true";
  }
  delete out.vet_flag_present;
  if (form.has("review_required_present") || form.has("review_required")) {
    out.review_required = form.get("review_required") === "on" || form.get("review_required") === "true";
  }
  delete out.review_required_present;
  if (form.has("licence_prerequisites_present")) out.licence_prerequisites = form.getAll("licence_prerequisites").filter((v) => typeof v === "string");
  delete out.licence_prerequisites_present;
  delete out.intent;
  return out;
}

/**
 * The list buttons of the course form without JavaScript: `add-outcome`,
 * `remove-criterion-2` and so on. Returns null for any other intent.
 */
const LIST_BY_KEYWORD: Record<string, CourseListName> = {
  prerequisite: "prerequisites",
  outcome: "learning_outcomes",
  criterion: "assessment_criteria",
};

export function parseListIntent(intent: unknown): { list: CourseListName; op: "add" } | { list: CourseListName; op: "remove"; index: number } | null {
  if (typeof intent !== "string") return null;
  const match = /^(add|remove)-(prerequisite|outcome|criterion)(?:-(\d{1,3}))?$/.exec(intent);
  if (!match) return null;
  const list = LIST_BY_KEYWORD[match[2]!]!;
  if (match[1] === "add") return match[3] === undefined ? { list, op: "add" } : null;
  return match[3] === undefined ? null : { list, op: "remove", index: Number(match[3]) };
}

/** Applies a list button to the submitted entries (blank entries are kept while editing). */
export function applyListIntent(entries: string[], intent: { op: "add" } | { op: "remove"; index: number }): string[] {
  if (intent.op === "add") return [...entries, ""];
  return entries.filter((_, i) => i !== intent.index);
}
