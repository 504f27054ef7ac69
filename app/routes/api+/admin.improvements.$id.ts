import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parsePartialInput, pathId, readJsonBody } from "~/api/http.server";
import { improvementUpdateRequest, type ImprovementActionResponse } from "~/api/improvement-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getImprovementAction, updateImprovementAction } from "~/models/standards/improvement.server";
import { notFound } from "~/utils/errors";

/**
 * GET /api/admin/improvements/{id} → the action; PUT → update an open one (a field left out keeps
 * its value; a closed one is a 409). Administrators.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiUser(request, "admin");
    const found = await getImprovementAction(getDb(), pathId(params, "Improvement action"));
    if (!found) throw notFound("Improvement action");
    return apiJson<ImprovementActionResponse>(found);
  },
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Improvement action");
    const db = getDb();
    const found = await getImprovementAction(db, id);
    if (!found) throw notFound("Improvement action");
    // a closed action's status stands in as open only to reach the model, which refuses any
    // change to a closed action (409) whatever is sent
    const current = { ...found, owner_id: found.owner.id, status: found.status === "closed" ? "open" : found.status };
    const input = parsePartialInput(improvementUpdateRequest, await readJsonBody(request), current);
    return apiJson<ImprovementActionResponse>(await updateImprovementAction(db, id, input, { id: admin.id, client: clientAddress(request) }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
