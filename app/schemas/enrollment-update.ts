import { z } from "zod";
import { ENROLLMENT_STATUSES } from "#db/schema";
import { progressInStatus } from "~/rules/enrollment-rules";
import { isCalendarDate } from "~/utils/organisation-calendar";
import { checkbox } from "./fields";
import { optionalWholeNumber } from "./assessment";

/**
 * Updating an enrollment's progress and status (the trainer's form at
 * /trainer/enrollments/{id}). The input, checked against the status/progress rules
 * (`progressInStatus`) so the form points at the field at fault; the rules that depend on the
 * enrollment's current state live in `updateEnrollmentProgress`.
 */

export const enrollmentUpdateSchema = z
  .object({
    progress: optionalWholeNumber("Progress").refine((v) => v === null || v <= 100, "Progress must be between 0 and 100"),
    status: z.enum(ENROLLMENT_STATUSES, { message: "Status must be enrolled, in progress, completed or withdrawn" }),
    /** Explicit consent to reinstate a withdrawn enrollment (never done silently). */
    reopen: checkbox,
  })
  .transform((v, ctx) => {
    const rule = progressInStatus(v.status, v.progress);
    if (!rule.ok) {
      ctx.addIssue({ code: "custom", path: [rule.field], message: rule.message });
      return z.NEVER;
    }
    return { progress: rule.progress, status: v.status, reopen: v.reopen };
  });

export type EnrollmentUpdateInput = z.infer<typeof enrollmentUpdateSchema>;

/**
 * PUT /api/enrollments/{id}: what to change; a field left out keeps its current value. The
 * route holds the result to the trainer's form (`enrollmentUpdateSchema`) and the planned dates
 * to `plannedDatesSchema`, so both ways in answer to the same rules.
 */
export const enrollmentPatchSchema = z.object({
  status: z.enum(ENROLLMENT_STATUSES, { message: "status must be enrolled, in_progress, completed or withdrawn" }).optional(),
  progress_percentage: z
    .int({ message: "progress_percentage must be a whole number" })
    .min(0, "progress_percentage must be between 0 and 100")
    .max(100, "progress_percentage must be between 0 and 100")
    .optional(),
  reopen: z.boolean({ message: "reopen must be true or false" }).optional().describe("true to reinstate a withdrawn enrolment (never done silently)"),
  planned_start_date: z
    .string({ message: "planned_start_date must be a date (YYYY-MM-DD)" })
    .optional()
    .describe("The planned start of the activity (YYYY-MM-DD); sent with planned_end_date"),
  planned_end_date: z
    .string({ message: "planned_end_date must be a date (YYYY-MM-DD)" })
    .optional()
    .describe("The planned end (YYYY-MM-DD), not before the start"),
});

const PLANNED_DATE = "Enter the date as YYYY-MM-DD";
/** A real calendar date between 1980 and 2099 (the years a collection may report). */
const plannedDate = (label: string) =>
  z
    .string({ message: `${label}: ${PLANNED_DATE}` })
    .trim()
    .refine((v) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
      const year = Number(v.slice(0, 4));
      return year >= 1980 && year <= 2099 && isCalendarDate(v);
    }, `${label}: ${PLANNED_DATE} (a real date, 1980 to 2099)`);

export const PLANNED_END_BEFORE_START = "The planned end cannot be before the planned start";

/**
 * An enrolment's planned start and end (the trainer's and office's form, and
 * PUT /api/enrollments/{id}): real dates, the end not before the start.
 */
export const plannedDatesSchema = z
  .object({ planned_start_date: plannedDate("Planned start"), planned_end_date: plannedDate("Planned end") })
  .refine((v) => v.planned_end_date >= v.planned_start_date, { path: ["planned_end_date"], message: PLANNED_END_BEFORE_START });
export type PlannedDatesInput = z.infer<typeof plannedDatesSchema>;
