import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { improvementUpdateRequest, type ImprovementActionResponse } from "~/api/improvement-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getImprovementAction, updateImprovementAction } from "~/models/standards/improvement.server";
import { notFound } from "~/utils/errors";

/** GET /api/admin/improvements/{id} → the action; PUT → update an open one (a closed one is a 409). Administrators. */
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
    const input = parseInput(improvementUpdateRequest, await readJsonBody(request));
    return apiJson<ImprovementActionResponse>(await updateImprovementAction(getDb(), id, input, { id: admin.id, client: clientAddress(request) }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
