import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, pathId, readJsonBody } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getChecklist, reviewChecklist } from "~/models/standards/checklist.server";

/**
 * POST /api/admin/checklists/{id}/review → 200 with the checklist, marked reviewed before use
 * (from then trainers may mark it). Administrators; no body.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Checklist");
    await readJsonBody(request, { optional: true });
    const db = getDb();
    await reviewChecklist(db, id, { id: admin.id, client: clientAddress(request) });
    return apiJson(await getChecklist(db, id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
