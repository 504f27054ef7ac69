import { z } from "zod";
import { optionalText, requiredText } from "./fields";
import { REVIEW_CHOICE_SLOTS, REVIEW_GROUPS, REVIEW_KINDS, REVIEW_OUTCOMES } from "./review-text";

/**
 * The pre-enrolment review's payloads, shared by the pages and /api: the learner's answers, a
 * staff override, a question added to the bank and the groups' thresholds.
 */

/** A question's id in a form field's name: `q_<id>`. */
export const ANSWER_FIELD_PREFIX = "q_";

const answer = z
  .union([z.string().max(50, "An answer is at most 50 characters"), z.number()], { message: "Each answer is text or a number" })
  .transform((v) => String(v).trim());

/** The answers, by question id (the model checks them against the questions asked). */
export const reviewAnswersSchema = z.strictObject({
  answers: z
    .record(z.string().max(40), answer, { message: "answers must be an object of question id to answer" })
    .refine((a) => Object.keys(a).length <= 200, "Too many answers"),
});
export type ReviewAnswers = z.infer<typeof reviewAnswersSchema>;

/** The review form as posted: each answer in its own `q_<id>` field. */
export function reviewFormInput(form: FormData): { answers: Record<string, string> } {
  const answers: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (name.startsWith(ANSWER_FIELD_PREFIX) && typeof value === "string") answers[name.slice(ANSWER_FIELD_PREFIX.length)] = value;
  }
  return { answers };
}

export const reviewOverrideSchema = z.strictObject({
  outcome: z.enum(REVIEW_OUTCOMES, { message: "Choose the outcome: suitable, suitable with support or refer to staff" }),
  reason: requiredText("Reason", 1000, { multiline: true }),
});
export type ReviewOverride = z.infer<typeof reviewOverrideSchema>;

const choiceList = z
  .array(z.string().trim().max(300, "A choice is at most 300 characters"))
  .transform((list) => list.filter((c) => c.length > 0))
  .optional();

export const reviewQuestionSchema = z
  .strictObject({
    group: z.enum(REVIEW_GROUPS, { message: "Choose the group: reading, writing, numeracy or digital" }),
    kind: z.enum(REVIEW_KINDS, { message: "Choose multiple choice or numeric answer" }),
    prompt: requiredText("Question", 500, { multiline: true }),
    context: optionalText("What the question shows", 1000, { multiline: true }),
    choices: choiceList,
    answer: requiredText("Right answer", 50),
    tolerance: optionalText("Tolerance", 20),
  })
  .superRefine((q, ctx) => {
    if (q.kind === "choice") {
      const choices = q.choices ?? [];
      if (choices.length < 2 || choices.length > 6) ctx.addIssue({ code: "custom", path: ["choices"], message: "Give 2 to 6 choices" });
      const index = Number(q.answer) - 1;
      if (!Number.isInteger(index) || index < 0 || index >= choices.length)
        ctx.addIssue({ code: "custom", path: ["answer"], message: "The right answer is the number of a choice (1 for the first)" });
    } else {
      if (!Number.isFinite(Number(q.answer))) ctx.addIssue({ code: "custom", path: ["answer"], message: "The right answer is a number, e.g. 0.471" });
      if (q.tolerance && !(Number(q.tolerance) >= 0)) ctx.addIssue({ code: "custom", path: ["tolerance"], message: "Tolerance is a number of 0 or more" });
    }
  });
export type ReviewQuestionInput = z.infer<typeof reviewQuestionSchema>;

const percent = (label: string) =>
  z.coerce
    .number({ message: `${label} must be a whole number from 0 to 100` })
    .int(`${label} must be a whole number from 0 to 100`)
    .min(0, `${label} must be from 0 to 100`)
    .max(100, `${label} must be from 0 to 100`);

export const reviewGroupSchema = z
  .strictObject({
    group: z.enum(REVIEW_GROUPS, { message: "Unknown group" }),
    suitable_from: percent("Suitable from"),
    support_from: percent("Support from"),
    support_advice: requiredText("Advice with support", 1000, { multiline: true }),
    refer_advice: requiredText("Advice to talk to staff", 1000, { multiline: true }),
  })
  .refine((g) => g.support_from <= g.suitable_from, { path: ["support_from"], message: "Support from must not be above suitable from" });
export type ReviewGroupInput = z.infer<typeof reviewGroupSchema>;

/** The question form as posted (the admins' page): each choice in its own `choice_<n>` field, blank ones dropped by the schema. */
export function reviewQuestionFormInput(form: FormData): Record<string, unknown> {
  const text = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : undefined);
  return {
    group: text("group"),
    kind: text("kind"),
    prompt: text("prompt"),
    context: text("context"),
    choices: text("kind") === "choice" ? Array.from({ length: REVIEW_CHOICE_SLOTS }, (_, i) => text(`choice_${i + 1}`) ?? "") : undefined,
    answer: text("answer"),
    tolerance: text("kind") === "numeric" ? text("tolerance") : undefined,
  };
}
