import { z } from "zod";
import { ASSESSMENT_STATUSES } from "#db/schema";
import { ASSESSMENT_TYPES, MAX_SCORE_LIMIT } from "./assessment-text";
import { cleanText, pastCalendarDate } from "./fields";

/**
 * Recording an assessment (the trainer's form at /trainer/assessments/new).
 *
 * Rules a trainer can read off the form:
 * - score and max score are whole numbers; max score is 1 to 1000 and score 0 to max score;
 * - passed and failed are marked results, so they need a score and max score; an assessment
 *   in progress or awaiting resubmission may leave both blank (not marked yet), but one
 *   without the other is refused;
 * - the date is a real calendar date, not in the future (the organisation's calendar,
 *   Australia/Sydney) and not before 2000;
 * - failed and resubmission need feedback, so the student knows what to improve.
 */

export { ASSESSMENT_TYPES, MAX_SCORE_LIMIT, PENDING_ASSESSMENT_DEFINITION } from "./assessment-text";

/**
 * An optional whole number from a form field (text) or JSON (number): blank is null,
 * "12" is 12, "12.5", "-3", "1e3" and "abc" are refused with a message naming the field.
 */
export const optionalWholeNumber = (label: string) =>
  z
    .union([z.string(), z.number(), z.null()], { message: `${label} must be a whole number` })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === null) return null;
      if (typeof v === "string") {
        const t = v.trim();
        if (t === "") return null;
        if (!/^\d{1,9}$/.test(t)) {
          ctx.addIssue({ code: "custom", message: `${label} must be a whole number of 0 or more` });
          return z.NEVER;
        }
        return Number(t);
      }
      if (!Number.isSafeInteger(v) || v < 0) {
        ctx.addIssue({ code: "custom", message: `${label} must be a whole number of 0 or more` });
        return z.NEVER;
      }
      return v;
    });

export const assessmentSchema = z
  .object({
    enrollment_id: z
      .string({ message: "Choose the student's enrolment" })
      .trim()
      .min(1, "Choose the student's enrolment")
      .pipe(z.uuid("Choose the student's enrolment")),
    assessment_type: z.enum(ASSESSMENT_TYPES, { message: `Choose the assessment type: ${ASSESSMENT_TYPES.join(", ")}` }),
    status: z.enum(ASSESSMENT_STATUSES, { message: "Choose the status: passed, failed, in progress or resubmission" }),
    score: optionalWholeNumber("Score"),
    max_score: optionalWholeNumber("Max score"),
    assessment_date: pastCalendarDate("Assessment date"),
    feedback: cleanText("Feedback", { multiline: true })
      .trim()
      .max(2000, "Feedback must be at most 2000 characters")
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .superRefine((v, ctx) => {
    const marked = v.status === "passed" || v.status === "failed";
    if (v.score === null && v.max_score === null) {
      if (marked) {
        ctx.addIssue({ code: "custom", path: ["score"], message: "A passed or failed result needs a score" });
        ctx.addIssue({ code: "custom", path: ["max_score"], message: "A passed or failed result needs a max score" });
      }
    } else if (v.score === null) {
      const message = marked ? "A passed or failed result needs a score" : "Enter a score, or leave both score and max score blank";
      ctx.addIssue({ code: "custom", path: ["score"], message });
    } else if (v.max_score === null) {
      const message = marked ? "A passed or failed result needs a max score" : "Enter a max score, or leave both score and max score blank";
      ctx.addIssue({ code: "custom", path: ["max_score"], message });
    } else {
      if (v.max_score < 1 || v.max_score > MAX_SCORE_LIMIT) {
        ctx.addIssue({ code: "custom", path: ["max_score"], message: `Max score must be between 1 and ${MAX_SCORE_LIMIT}` });
      } else if (v.score > v.max_score) {
        ctx.addIssue({ code: "custom", path: ["score"], message: `Score cannot be more than the max score (${v.max_score})` });
      }
    }
    if ((v.status === "failed" || v.status === "resubmission") && !v.feedback) {
      ctx.addIssue({ code: "custom", path: ["feedback"], message: "Give feedback so the student knows what to improve" });
    }
  });

export type AssessmentInput = z.infer<typeof assessmentSchema>;
