import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { itemImprovementRequest } from "~/api/complaint-schemas";
import type { ImprovementActionResponse } from "~/api/improvement-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getComplaint } from "~/models/complaints/complaint.server";
import { createImprovementAction } from "~/models/standards/improvement.server";

/**
 * POST /api/admin/complaints/{id}/improvements → 201 with an improvement action whose source is
 * the complaint or appeal (as the item page's "Raise an improvement action" link prefills). Administrators.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Complaint or appeal");
    const input = parseInput(itemImprovementRequest, await readJsonBody(request));
    const db = getDb();
    const item = await getComplaint(db, id, { id: admin.id, role: admin.role });
    const raised = await createImprovementAction(
      db,
      { ...input, source_type: item.kind, source_id: item.id },
      { id: admin.id, client: clientAddress(request) },
    );
    return apiJson<ImprovementActionResponse>(raised, 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
