import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parsePartialInput, pathId, readJsonBody } from "~/api/http.server";
import { questionUpdateRequest } from "~/api/improvement-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getQuestion, updateQuestion } from "~/models/standards/questionnaire.server";
import { notFound } from "~/utils/errors";

/**
 * PUT /api/admin/questionnaires/questions/{id} → change a question's wording or retire it (a field
 * left out keeps its value). Administrators.
 */
const handle = apiRoute({
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Question");
    const db = getDb();
    const current = await getQuestion(db, id);
    if (!current) throw notFound("Question");
    const input = parsePartialInput(questionUpdateRequest, await readJsonBody(request), current);
    return apiJson(await updateQuestion(db, id, input, { id: admin.id, client: clientAddress(request) }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
