import { z } from "zod";
import { blankOr, calendarDate, optionalCalendarDate, optionalText, requiredText, uuid } from "./fields";
import {
  ACTIVITY_KIND_CODES,
  CREDENTIAL_CHOICES,
  FINDING_OUTCOME_CODES,
  RISK_RATING_CODES,
  SAMPLE_SIZE_MAX,
  STANDARDS_MESSAGES,
  UNDER_DIRECTION,
  UNIT_BASIS_CODES,
  VALIDATORS_MAX,
} from "./standards-text";

/**
 * The forms and /api payloads of trainer credentials and course validation, one schema each;
 * the rules that need the database (a supervisor's own credential, a validator's units, the
 * sample's population) are the models'.
 */

const optionalDate = optionalCalendarDate;
const optionalId = blankOr(uuid);

/** One value or several of a form's checkboxes, as a list. */
const list = <T extends z.ZodType>(item: T, message: string, max: number) =>
  z.preprocess((v) => (typeof v === "string" ? [v] : v), z.array(item, { message }).min(1, message).max(max, message));

/** A training and assessment credential, or work under a named trainer's direction. */
export const trainingCredentialSchema = z
  .object({
    credential: z.enum(CREDENTIAL_CHOICES, { message: "Choose a credential from the list" }),
    supervisor_id: optionalId,
    issued_on: calendarDate("Date issued"),
    expires_on: optionalDate("Expiry date"),
    note: optionalText("Note", 300),
  })
  .superRefine((v, ctx) => {
    if (v.credential === UNDER_DIRECTION && !v.supervisor_id)
      ctx.addIssue({ code: "custom", path: ["supervisor_id"], message: STANDARDS_MESSAGES.supervisorRequired });
    if (v.credential !== UNDER_DIRECTION && v.supervisor_id)
      ctx.addIssue({ code: "custom", path: ["supervisor_id"], message: STANDARDS_MESSAGES.supervisorNotWanted });
    if (v.expires_on && v.expires_on < v.issued_on) ctx.addIssue({ code: "custom", path: ["expires_on"], message: STANDARDS_MESSAGES.expiryBeforeIssue });
  });
export type TrainingCredentialInput = z.infer<typeof trainingCredentialSchema>;

/** The vocational competency in one unit. */
export const trainerUnitSchema = z
  .object({
    unit_code: requiredText("Unit code", 20)
      .transform((v) => v.toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9]{3,20}$/, "Enter a unit code such as RIIHAN309F")),
    basis: z.enum(UNIT_BASIS_CODES, { message: "Choose held or equivalent" }),
    evidence: optionalText("Evidence", 500, { multiline: true }),
    expires_on: optionalDate("Expiry date"),
  })
  .superRefine((v, ctx) => {
    if (v.basis === "equivalent" && !v.evidence) ctx.addIssue({ code: "custom", path: ["evidence"], message: STANDARDS_MESSAGES.evidenceRequired });
  });
export type TrainerUnitInput = z.infer<typeof trainerUnitSchema>;

/** Industry currency or professional development, as the trainer or an administrator records it. */
export const trainerActivitySchema = z.object({
  kind: z.enum(ACTIVITY_KIND_CODES, { message: "Choose industry currency or professional development" }),
  activity_date: calendarDate("Activity date"),
  hours: z.coerce
    .number({ message: "Hours must be a number" })
    .refine((n) => Number.isFinite(n) && n > 0 && n <= 200, "Hours must be more than 0 and at most 200")
    .refine((n) => Number.isInteger(n * 4), "Hours are recorded to the quarter hour (such as 1.25)"),
  description: requiredText("What was done", 500, { multiline: true }),
  evidence: optionalText("Evidence", 300),
});
export type TrainerActivityInput = z.infer<typeof trainerActivitySchema>;

export const activityConfirmSchema = z.object({ activity_id: uuid });
export const removeRecordSchema = z.object({ record_id: uuid });

/** A course's risk rating and next validation day (blank: the latest the rating allows). */
export const courseValidationSchema = z.object({
  course_id: uuid,
  risk_rating: z.enum(RISK_RATING_CODES, { message: "Choose a risk rating" }),
  last_validated_on: optionalDate("Last validated"),
  next_due_on: optionalDate("Next validation"),
});
export type CourseValidationInput = z.infer<typeof courseValidationSchema>;

export const validationPlanSchema = z.object({
  course_id: z.string({ message: "Choose a course" }).trim().min(1, "Choose a course").pipe(z.uuid("Choose a course")),
  planned_on: calendarDate("Validation date"),
  sample_size: z.coerce
    .number({ message: "Sample size must be a whole number" })
    .int("Sample size must be a whole number")
    .min(1, "Sample size must be at least 1")
    .max(SAMPLE_SIZE_MAX, `Sample size must be at most ${SAMPLE_SIZE_MAX}`),
  validator_ids: list(uuid, `Choose from 1 to ${VALIDATORS_MAX} validators`, VALIDATORS_MAX).transform((ids) => [...new Set(ids)]),
});
export type ValidationPlanInput = z.infer<typeof validationPlanSchema>;

export const validationFindingSchema = z
  .object({
    sample_id: uuid,
    outcome: z.enum(FINDING_OUTCOME_CODES, { message: "Choose whether the judgement meets the principles and rules" }),
    finding: optionalText("Finding", 1000, { multiline: true }),
    action: optionalText("Action", 1000, { multiline: true }),
  })
  .superRefine((v, ctx) => {
    if (v.outcome === "does_not_meet" && !v.finding) ctx.addIssue({ code: "custom", path: ["finding"], message: STANDARDS_MESSAGES.findingNeeded });
  });
export type ValidationFindingInput = z.infer<typeof validationFindingSchema>;

export const validationCompleteSchema = z.object({ summary: optionalText("Summary", 2000, { multiline: true }) });

/** Drawing the sample: nothing to choose (the size is the plan's, the seed the portal's). */
export const validationSampleSchema = z.object({});
