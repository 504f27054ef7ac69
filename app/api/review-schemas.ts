import { z } from "zod";
import { reviewAnswersSchema, reviewOverrideSchema, reviewQuestionSchema } from "~/schemas/review";
import { REVIEW_GROUPS, REVIEW_KINDS, REVIEW_OUTCOMES } from "~/schemas/review-text";
import { requests, responses } from "./schemas";

/** The pre-enrolment review's /api payloads, registered for the OpenAPI document. */
export const reviewAnswersRequest = reviewAnswersSchema.register(requests, { id: "ReviewAnswers" });
export const reviewOverrideRequest = reviewOverrideSchema.register(requests, { id: "ReviewOverride" });
export const reviewQuestionRequest = reviewQuestionSchema.register(requests, { id: "ReviewQuestionCreate" });

const instant = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time");
const group = z.enum(REVIEW_GROUPS);
const outcome = z.enum(REVIEW_OUTCOMES).describe("suitable, support (suitable with support) or refer (refer to staff)");
const groupScore = z.strictObject({ correct: z.int().min(0), total: z.int().min(0), percent: z.int().min(0).max(100), outcome });

const question = {
  id: z.uuid(),
  group,
  kind: z.enum(REVIEW_KINDS),
  prompt: z.string(),
  context: z.string().nullable().describe("What the question shows: a load chart's lines, a sign described, a form's field"),
  choices: z.array(z.string()).describe("The choices of a multiple-choice question; answer with the index (0 for the first)"),
};

const attempt = z.strictObject({
  id: z.uuid(),
  course_id: z.uuid(),
  outcome,
  advice: z.string().describe("The advice as shown: the outcome's line, then one line per group needing support"),
  support: z.array(group).describe("Groups below suitable"),
  scores: z.partialRecord(group, groupScore),
  created_at: instant,
  retake_from: instant.describe("When the review may be taken again"),
});

export const reviewPageResponse = z
  .strictObject({
    course: z.strictObject({ id: z.uuid(), name: z.string(), unit_code: z.string(), retake_days: z.int().min(0) }),
    questions: z.array(z.strictObject(question)),
    latest: attempt.nullable().describe("The caller's latest attempt on this course"),
  })
  .register(responses, { id: "ReviewPage" });

export const reviewTakenResponse = z
  .strictObject({
    attempt,
    enrollment: z
      .strictObject({ id: z.uuid(), review_status: z.enum(["awaiting", "referred", "confirmed"]) })
      .nullable()
      .describe("The caller's enrolment in the course, when they hold one: confirmed by this review, or held for staff on refer"),
  })
  .register(responses, { id: "ReviewTaken" });

export const enrollmentReviewResponse = z
  .object({
    enrollment_id: z.uuid(),
    student_id: z.uuid(),
    course_id: z.uuid(),
    status: z.enum(["awaiting", "referred", "confirmed"]).describe("awaiting: seat held, no review yet; referred: seat held until staff decide; confirmed"),
    outcome: outcome.nullable(),
    support: z.array(group),
    advice: z.string().nullable().optional().describe("The learner and administrators only"),
    override: z
      .strictObject({ reason: z.string(), by: z.uuid().nullable(), at: instant })
      .nullable()
      .optional()
      .describe("The learner and administrators only"),
    attempts: z
      .array(attempt.extend({ answers: z.array(z.strictObject({ question_id: z.uuid(), group, answer: z.string(), correct: z.boolean() })) }))
      .optional()
      .describe("Every attempt with its answers, newest first: the learner and administrators only"),
  })
  .strict()
  .describe("An enrolment's review; a trainer reads the status, outcome and support needs only")
  .register(responses, { id: "EnrollmentReview" });

export const reviewQuestionResponse = z
  .strictObject({
    ...question,
    answer: z.string().describe("choice: the index of the right choice; numeric: the value"),
    tolerance: z.string().nullable(),
    position: z.int(),
    is_active: z.boolean(),
  })
  .register(responses, { id: "ReviewQuestion" });

export const reviewBankResponse = z
  .strictObject({
    questions: z.array(reviewQuestionResponse),
    groups: z.array(
      z.strictObject({
        group_key: group,
        suitable_from: z.int().min(0).max(100),
        support_from: z.int().min(0).max(100),
        support_advice: z.string(),
        refer_advice: z.string(),
      }),
    ),
  })
  .register(responses, { id: "ReviewBank" });
