import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { improvementCloseRequest, type ImprovementActionResponse } from "~/api/improvement-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { closeImprovementAction } from "~/models/standards/improvement.server";

/** POST /api/admin/improvements/{id}/close → closes the action with what was done and its evidence (422 without them). Administrators. */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Improvement action");
    const input = parseInput(improvementCloseRequest, await readJsonBody(request));
    return apiJson<ImprovementActionResponse>(await closeImprovementAction(getDb(), id, input, { id: admin.id, client: clientAddress(request) }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
