import { z } from "zod";
import type { EnrollmentStatus } from "#db/schema";
import { checkbox } from "./fields";
import { optionalWholeNumber } from "./assessment";

/**
 * Updating an enrollment's progress and status (the trainer's form at
 * /trainer/enrollments/{id}). Input rules only; the transition rules that depend on the
 * enrollment's current state live in `updateEnrollmentProgress`.
 */

export const ENROLLMENT_STATUSES = ["enrolled", "in_progress", "completed", "withdrawn"] as const satisfies readonly EnrollmentStatus[];

export const enrollmentUpdateSchema = z
  .object({
    progress: optionalWholeNumber("Progress").refine((v) => v === null || v <= 100, "Progress must be between 0 and 100"),
    status: z.enum(ENROLLMENT_STATUSES, { message: "Status must be enrolled, in progress, completed or withdrawn" }),
    /** Explicit consent to reinstate a withdrawn enrollment (never done silently). */
    reopen: checkbox,
  })
  .transform((v, ctx) => {
    // Completing always means 100%; the field may be left as it was.
    const progress = v.status === "completed" ? 100 : v.progress;
    if (progress === null) {
      ctx.addIssue({ code: "custom", path: ["progress"], message: "Progress is required (0 to 100)" });
      return z.NEVER;
    }
    if (v.status === "enrolled" && progress > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["status"],
        message: "Progress above 0% means the course has started: choose In progress, or set progress to 0",
      });
      return z.NEVER;
    }
    return { progress, status: v.status, reopen: v.reopen };
  });

export type EnrollmentUpdateInput = z.infer<typeof enrollmentUpdateSchema>;
