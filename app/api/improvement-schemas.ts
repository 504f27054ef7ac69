import { z } from "zod";
import { improvementCloseSchema, improvementCreateSchema, improvementUpdateSchema } from "~/schemas/improvement";
import { IMPROVEMENT_SOURCES, IMPROVEMENT_STATUSES, QUESTION_KINDS, QUESTIONNAIRE_AUDIENCES } from "~/schemas/improvement-text";
import { lowAverageSchema, questionCreateSchema, questionUpdateSchema } from "~/schemas/questionnaire";
import { requests, responses } from "./schemas";

/** The improvement register's and the questionnaires' /api bodies and answers. */

const instant = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time");
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe("YYYY-MM-DD, a day on the organisation's calendar");
const person = z.strictObject({ id: z.uuid(), full_name: z.string() });

export const improvementCreateRequest = improvementCreateSchema.strict().register(requests, { id: "ImprovementActionCreate" });
/** PUT bodies: any of the fields, laid over the record (parsePartialInput checks the whole). */
export const improvementUpdateRequest = improvementUpdateSchema.strict().register(requests, { id: "ImprovementActionUpdate" });
export const improvementPatchRequest = improvementUpdateSchema.partial().strict().register(requests, { id: "ImprovementActionPatch" });
export const improvementCloseRequest = improvementCloseSchema.strict().register(requests, { id: "ImprovementActionClose" });
export const questionCreateRequest = questionCreateSchema.strict().register(requests, { id: "QuestionnaireQuestionCreate" });
export const questionUpdateRequest = questionUpdateSchema.strict().register(requests, { id: "QuestionnaireQuestionUpdate" });
export const questionPatchRequest = questionUpdateSchema.partial().strict().register(requests, { id: "QuestionnaireQuestionPatch" });
export const lowAverageRequest = lowAverageSchema.strict().register(requests, { id: "QuestionnaireThreshold" });

export const improvementActionResponse = z
  .strictObject({
    id: z.uuid(),
    source_type: z.enum(IMPROVEMENT_SOURCES),
    source_id: z.string().nullable().describe("The record the action came from, as given"),
    source_label: z
      .string()
      .nullable()
      .describe("The source's short description where the portal holds it (a questionnaire question, a complaint's or appeal's reference)"),
    description: z.string(),
    owner: person,
    due_date: day,
    status: z.enum(IMPROVEMENT_STATUSES),
    overdue: z.boolean().describe("Not closed and past its due day"),
    action_taken: z.string().nullable(),
    closure_evidence: z.string().nullable(),
    closed_at: instant.nullable(),
    closed_by: person.nullable(),
    created_at: instant,
    updated_at: instant,
  })
  .register(responses, { id: "ImprovementAction" });
export type ImprovementActionResponse = z.input<typeof improvementActionResponse>;

export const improvementPageResponse = z
  .strictObject({ actions: z.array(improvementActionResponse), total: z.int().min(0), page: z.int().min(1), pages: z.int().min(1) })
  .register(responses, { id: "ImprovementActionPage" });
export type ImprovementPageResponse = z.input<typeof improvementPageResponse>;

const questionResponse = z
  .strictObject({
    id: z.uuid(),
    audience: z.enum(QUESTIONNAIRE_AUDIENCES),
    kind: z.enum(QUESTION_KINDS),
    prompt: z.string(),
    position: z.int().min(1),
    retired: z.boolean().describe("No longer asked; its answers stay in the reports"),
  })
  .register(responses, { id: "QuestionnaireQuestion" });
export { questionResponse };

export const questionListResponse = z
  .strictObject({
    audience: z.enum(QUESTIONNAIRE_AUDIENCES),
    low_average: z.number().describe("Averages under this are flagged"),
    questions: z.array(questionResponse),
  })
  .register(responses, { id: "QuestionnaireQuestions" });
export type QuestionListResponse = z.input<typeof questionListResponse>;

export const summaryResponse = z
  .strictObject({
    audience: z.enum(QUESTIONNAIRE_AUDIENCES),
    from: day,
    to: day,
    threshold: z.number(),
    responses: z.int().min(0).describe("Questionnaires answered in the period"),
    questions: z.array(
      z.strictObject({
        id: z.uuid(),
        prompt: z.string(),
        kind: z.enum(QUESTION_KINDS),
        retired: z.boolean(),
        count: z.int().min(0),
        average: z.number().nullable(),
        ratings: z.array(z.int().min(0)).length(5).describe("How many gave 1, 2, 3, 4 and 5"),
        low: z.int().min(0).describe("Ratings of 2 or lower"),
        flagged: z.boolean().describe("Average under the threshold, or any rating of 2 or lower"),
        texts: z.array(z.string()).describe("Text answers as written (at most 50), without names or dates"),
      }),
    ),
  })
  .register(responses, { id: "QuestionnaireSummary" });
export type SummaryResponse = z.input<typeof summaryResponse>;
