import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { lowAverageRequest, type QuestionListResponse } from "~/api/improvement-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { listQuestions, setLowAverageThreshold } from "~/models/standards/questionnaire.server";

/** PUT /api/admin/questionnaires/threshold → the audience's low-score threshold; answers its questions with it. Administrators. */
const handle = apiRoute({
  PUT: async ({ request }) => {
    const admin = await requireApiUser(request, "admin");
    const input = parseInput(lowAverageRequest, await readJsonBody(request));
    const db = getDb();
    const saved = await setLowAverageThreshold(db, input, { id: admin.id, client: clientAddress(request) });
    return apiJson<QuestionListResponse>({
      audience: input.audience,
      low_average: saved,
      questions: await listQuestions(db, input.audience, { includeRetired: true }),
    });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
