import { z } from "zod";
import { ENROLLMENT_STATUSES } from "#db/schema";
import { progressInStatus } from "~/models/enrollment-rules";
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
