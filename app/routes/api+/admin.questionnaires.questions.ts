import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiJson, apiRoute, parseInput, queryObject, readJsonBody } from "~/api/http.server";
import { questionCreateRequest, type QuestionListResponse } from "~/api/improvement-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { addQuestion, listQuestions, lowAverageThreshold } from "~/models/standards/questionnaire.server";
import { questionnaireAudience } from "~/schemas/questionnaire";

const audienceQuery = z.strictObject({ audience: questionnaireAudience.default("learner") });

/** GET /api/admin/questionnaires/questions?audience= → the questions and threshold; POST → add a question (201). Administrators. */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const { audience } = parseInput(audienceQuery, queryObject(request));
    const db = getDb();
    return apiJson<QuestionListResponse>({
      audience,
      low_average: await lowAverageThreshold(db, audience),
      questions: await listQuestions(db, audience, { includeRetired: true }),
    });
  },
  POST: async ({ request }) => {
    const admin = await requireApiUser(request, "admin");
    const input = parseInput(questionCreateRequest, await readJsonBody(request));
    return apiJson(await addQuestion(getDb(), input, { id: admin.id, client: clientAddress(request) }), 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
