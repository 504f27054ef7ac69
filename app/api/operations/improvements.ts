import { improvementListQuery } from "~/schemas/improvement";
import { summaryQuery } from "~/schemas/questionnaire";
import { z } from "zod";
import { QUESTIONNAIRE_AUDIENCES } from "~/schemas/improvement-text";
import {
  improvementActionResponse,
  improvementCloseRequest,
  improvementCreateRequest,
  improvementPageResponse,
  improvementPatchRequest,
  lowAverageRequest,
  questionCreateRequest,
  questionListResponse,
  questionResponse,
  questionPatchRequest,
  summaryResponse,
} from "../improvement-schemas";
import { BODY_FAILURES, err, FORBIDDEN, INVALID, type ApiOperation, UNAUTHENTICATED } from "../operation";

const NOT_FOUND = err("No improvement action has this id");
const CLOSED = err("The action is closed; its record stands");

/** How the OpenAPI document describes the improvement register and the questionnaires (administrators). */
export const improvementOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/improvements",
    operationId: "listImprovementActions",
    summary: "The improvement register",
    description:
      "Administrators. One page of improvement actions, overdue first (oldest due first), then open ones by due day, then closed ones; filtered as /admin/improvements is.",
    tags: ["admin"],
    access: "required",
    query: improvementListQuery,
    responses: { 200: { description: "A page of actions", schema: improvementPageResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 422: INVALID },
  },
  {
    method: "post",
    path: "/api/admin/improvements",
    operationId: "raiseImprovementAction",
    summary: "Raise an improvement action",
    description:
      "Administrators. From a complaint, appeal, validation finding, questionnaire (source_id: the question's id), audit or other source; the owner is an active trainer or administrator. Answers the new action, open.",
    tags: ["admin"],
    access: "required",
    body: improvementCreateRequest,
    responses: { 201: { description: "The action raised", schema: improvementActionResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, ...BODY_FAILURES },
  },
  {
    method: "get",
    path: "/api/admin/improvements/{id}",
    operationId: "getImprovementAction",
    summary: "One improvement action",
    description: "Administrators.",
    tags: ["admin"],
    access: "required",
    responses: { 200: { description: "The action", schema: improvementActionResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND },
  },
  {
    method: "put",
    path: "/api/admin/improvements/{id}",
    operationId: "updateImprovementAction",
    summary: "Update an open improvement action",
    description:
      "Administrators. Its description, owner, due day, status (open or in_progress) and progress so far; fields left out stay as they are. A closed action is a 409.",
    tags: ["admin"],
    access: "required",
    body: improvementPatchRequest,
    responses: {
      200: { description: "The action as saved", schema: improvementActionResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: CLOSED,
      ...BODY_FAILURES,
    },
  },
  {
    method: "post",
    path: "/api/admin/improvements/{id}/close",
    operationId: "closeImprovementAction",
    summary: "Close an improvement action with its evidence",
    description:
      "Administrators. Needs what was done (here or saved before) and the closure evidence: without them a 422 and nothing changes. A closed action is a 409.",
    tags: ["admin"],
    access: "required",
    body: improvementCloseRequest,
    responses: {
      200: { description: "The action, closed", schema: improvementActionResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: CLOSED,
      ...BODY_FAILURES,
    },
  },
  {
    method: "get",
    path: "/api/admin/questionnaires/questions",
    operationId: "listQuestionnaireQuestions",
    summary: "A questionnaire's questions",
    description: "Administrators. The audience's questions in order, retired ones included, and its low-score threshold.",
    tags: ["admin"],
    access: "required",
    query: z.object({ audience: z.enum(QUESTIONNAIRE_AUDIENCES).optional().describe("learner (default) or employer") }),
    responses: { 200: { description: "The questions", schema: questionListResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 422: INVALID },
  },
  {
    method: "post",
    path: "/api/admin/questionnaires/questions",
    operationId: "addQuestionnaireQuestion",
    summary: "Add a question",
    description: "Administrators. A rating (1 to 5) or free-text question for learners or employers, asked last.",
    tags: ["admin"],
    access: "required",
    body: questionCreateRequest,
    responses: { 201: { description: "The question", schema: questionResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, ...BODY_FAILURES },
  },
  {
    method: "put",
    path: "/api/admin/questionnaires/questions/{id}",
    operationId: "updateQuestionnaireQuestion",
    summary: "Change or retire a question",
    description: "Administrators. Its wording, and whether it is retired (no longer asked); fields left out stay as they are. Its kind never changes.",
    tags: ["admin"],
    access: "required",
    body: questionPatchRequest,
    responses: {
      200: { description: "The question", schema: questionResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No question has this id"),
      ...BODY_FAILURES,
    },
  },
  {
    method: "put",
    path: "/api/admin/questionnaires/threshold",
    operationId: "setQuestionnaireThreshold",
    summary: "Set the low-score threshold",
    description: "Administrators. Per audience: a question whose average is under this is flagged (a rating of 2 or lower always is).",
    tags: ["admin"],
    access: "required",
    body: lowAverageRequest,
    responses: {
      200: { description: "The questions with the new threshold", schema: questionListResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      ...BODY_FAILURES,
    },
  },
  {
    method: "get",
    path: "/api/admin/questionnaires/summary",
    operationId: "questionnaireSummary",
    summary: "The questionnaire report",
    description:
      "Administrators. Per question over a period (organisation days, default this calendar year to today): count, average, each rating's count, the low ones and the text answers. Anonymous: nothing names who answered.",
    tags: ["admin"],
    access: "required",
    query: summaryQuery,
    responses: { 200: { description: "The summary", schema: summaryResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 422: INVALID },
  },
];
