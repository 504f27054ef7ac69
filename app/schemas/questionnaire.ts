import { z } from "zod";
import { requiredText, calendarDate } from "./fields";
import { QUESTION_KINDS, QUESTIONNAIRE_AUDIENCES } from "./improvement-text";

/** The questionnaires' admin forms and /api bodies; the answers' own rules are in questionnaire.server.ts. */

export const questionnaireAudience = z.enum(QUESTIONNAIRE_AUDIENCES, { message: `Audience must be one of ${QUESTIONNAIRE_AUDIENCES.join(", ")}` });
const prompt = requiredText("Question", 300).describe("The question as the learner or employer reads it");

export const questionCreateSchema = z.object({
  audience: questionnaireAudience,
  kind: z.enum(QUESTION_KINDS, { message: "Kind must be rating or text" }).describe("rating: 1 (strongly disagree) to 5 (strongly agree); text: free text"),
  prompt,
});
export type QuestionCreateInput = z.infer<typeof questionCreateSchema>;

const flag = z.union([z.boolean(), z.enum(["true", "false", "on", "1", "0", ""])]).transform((v) => v === true || v === "true" || v === "on" || v === "1");

export const questionUpdateSchema = z.object({
  prompt,
  retired: flag
    .optional()
    .transform((v) => v ?? false)
    .describe("true: no longer asked (its answers stay in the reports)"),
});
export type QuestionUpdateInput = z.infer<typeof questionUpdateSchema>;

export const lowAverageSchema = z.object({
  audience: questionnaireAudience,
  low_average: z.coerce
    .number({ message: "The threshold must be a number from 1 to 5" })
    .min(1, "The threshold must be a number from 1 to 5")
    .max(5, "The threshold must be a number from 1 to 5")
    .transform((v) => Math.round(v * 10) / 10)
    .describe("A question whose average is under this is flagged as a low score (one decimal)"),
});

/** The report's period: calendar days on the organisation's calendar, both inclusive. */
export const summaryQuery = z
  .object({
    audience: questionnaireAudience.default("learner"),
    from: calendarDate("From", "2000-01-01").optional().describe("First day, YYYY-MM-DD (default: 1 January this year)"),
    to: calendarDate("To", "2000-01-01").optional().describe("Last day, YYYY-MM-DD (default: today)"),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "From must not be after To", path: ["to"] });
export type SummaryQuery = z.infer<typeof summaryQuery>;

export const annualQuery = z.object({
  audience: questionnaireAudience.default("learner"),
  year: z.coerce
    .number({ message: "Year must be a year" })
    .int("Year must be a year")
    .min(2000, "Year must be 2000 or later")
    .max(2100, "Year must be 2100 or earlier"),
});

/**
 * A questionnaire's answers as its page posts them, `q_<question id>` to a rating or text: the
 * questions are the link's own, so the model reads each answer against its question
 * (submitQuestionnaire); no /api answers questionnaires.
 */
export const postedAnswersSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
