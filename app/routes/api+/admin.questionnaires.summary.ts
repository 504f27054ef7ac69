import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import type { SummaryResponse } from "~/api/improvement-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { questionnaireSummary } from "~/models/standards/questionnaire.server";
import { summaryQuery } from "~/schemas/questionnaire";

/** GET /api/admin/questionnaires/summary?audience=&from=&to= → per question counts and averages over the period, anonymous. Administrators. */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const query = parseInput(summaryQuery, queryObject(request));
    return apiJson<SummaryResponse>(await questionnaireSummary(getDb(), query));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
