import { z } from "zod";
import { cleanText, optionalText, phone, uuid } from "./fields";
import { filterChoice } from "./list-filters";
import { ASSESSMENT_KINDS } from "./evidence";
import { COMPLAINT_KINDS, COMPLAINT_MESSAGES, COMPLAINT_OUTCOMES, COMPLAINT_STATUSES, DETAILS_MAX, POLICY_MAX, REASONS_MAX } from "./complaint-text";

/**
 * The forms and payloads of complaints and appeals, the same for the pages and /api: lodging a
 * complaint or an appeal, acknowledging, resolving (a complaint) or deciding (an appeal), the
 * register's filters and the admins' settings.
 */

const longText = (label: string, empty: string, tooLong: string, max: number) =>
  cleanText(label, { multiline: true, typeMessage: empty }).trim().min(1, empty).max(max, tooLong);

const contactEmail = z
  .preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    z
      .string({ message: "Email must be text" })
      .trim()
      .max(254, "Email must be at most 254 characters")
      .pipe(z.email("Enter a valid email address"))
      .transform((v) => v.toLowerCase())
      .nullish(),
  )
  .transform((v) => v ?? null);

/** A complaint: what it is about, and (optional: anonymous is allowed) who to reply to. */
export const complaintInput = z.object({
  details: longText("Complaint", COMPLAINT_MESSAGES.detailsEmpty, COMPLAINT_MESSAGES.detailsTooLong, DETAILS_MAX).describe(
    `What the complaint is about (at most ${DETAILS_MAX} characters)`,
  ),
  name: optionalText("Name", 200).describe("Optional: leave out to stay anonymous"),
  email: contactEmail.describe("Optional: where the acknowledgement and outcome are sent"),
  phone: phone.describe("Optional"),
});
export type ComplaintInput = z.infer<typeof complaintInput>;

/** An appeal of one of the learner's own assessments. */
export const appealInput = z.object({
  assessment_kind: z.enum([...ASSESSMENT_KINDS, "recognition"], { message: "Choose the assessment to appeal" }),
  assessment_id: uuid,
  details: longText("Appeal", COMPLAINT_MESSAGES.appealEmpty, COMPLAINT_MESSAGES.detailsTooLong, DETAILS_MAX).describe(
    `Why the decision should change (at most ${DETAILS_MAX} characters)`,
  ),
});
export type AppealInput = z.infer<typeof appealInput>;

/** Choosing who decides an appeal (an admin's step). */
/** Acknowledging asks nothing but the intent. */
export const acknowledgeInput = z.object({ intent: z.literal("acknowledge") });

export const assignDeciderInput = z.object({ decider_id: uuid });

const UNIT_RESULTS = ["passed", "failed"] as const;
const HRW_PARTS = ["knowledge", "calculations", "practical"] as const;
const HRW_RESULTS = ["satisfactory", "not_yet_satisfactory"] as const;
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/**
 * Resolving a complaint or deciding an appeal: the outcome and its reasons; for an appeal that
 * is upheld (or partly), the result it changes to: a unit assessment's status, or a licence
 * assessment part's result.
 */
export const resolveInput = z
  .object({
    outcome: z.enum(COMPLAINT_OUTCOMES, { message: "Choose the outcome" }),
    reasons: longText("Reasons", COMPLAINT_MESSAGES.reasonsEmpty, COMPLAINT_MESSAGES.reasonsTooLong, REASONS_MAX),
    new_status: z
      .preprocess(blank, z.enum(UNIT_RESULTS, { message: "Choose passed or failed" }).optional())
      .describe("Unit assessment appeals: the result it changes to"),
    hrw_part: z
      .preprocess(blank, z.enum(HRW_PARTS, { message: "Choose the part" }).optional())
      .describe("Licence assessment appeals: the part whose result changes"),
    hrw_result: z
      .preprocess(blank, z.enum(HRW_RESULTS, { message: "Choose the result" }).optional())
      .describe("Licence assessment appeals: the part's new result"),
  })
  .refine((v) => (v.hrw_part === undefined) === (v.hrw_result === undefined), { message: "Give both the part and its new result", path: ["hrw_result"] });
export type ResolveInput = z.infer<typeof resolveInput>;

/** The register's filters, on the page and over /api. */
export const complaintListQuery = z.object({
  kind: filterChoice("kind", COMPLAINT_KINDS),
  status: filterChoice("status", [...COMPLAINT_STATUSES, "open"] as const).describe("received, acknowledged, resolved, or open (not yet resolved)"),
  overdue: z.preprocess(blank, z.enum(["yes"], { message: "overdue must be yes" }).optional()).describe("yes: only items past a clock"),
});
export type ComplaintListQuery = z.infer<typeof complaintListQuery>;

/** The admins' settings: the clocks' lengths and the public policy. */
export const complaintSettingsInput = z.object({
  acknowledge_business_days: z.coerce
    .number({ message: "Enter a whole number of business days" })
    .int("Enter a whole number of business days")
    .min(1, "At least 1 business day")
    .max(20, "At most 20 business days"),
  resolve_days: z.coerce
    .number({ message: "Enter a whole number of days" })
    .int("Enter a whole number of days")
    .min(1, "At least 1 day")
    .max(365, "At most 365 days"),
  policy: longText("Policy", "Write the policy's text", `Keep the policy under ${POLICY_MAX.toLocaleString("en-AU")} characters`, POLICY_MAX),
});
export type ComplaintSettingsInput = z.infer<typeof complaintSettingsInput>;
