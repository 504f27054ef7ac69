import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { questionUpdateRequest } from "~/api/improvement-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { updateQuestion } from "~/models/standards/questionnaire.server";

/** PUT /api/admin/questionnaires/questions/{id} → change a question's wording or retire it. Administrators. */
const handle = apiRoute({
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Question");
    const input = parseInput(questionUpdateRequest, await readJsonBody(request));
    return apiJson(await updateQuestion(getDb(), id, input, { id: admin.id, client: clientAddress(request) }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
