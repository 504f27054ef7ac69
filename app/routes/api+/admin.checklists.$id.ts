import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { checklistRequest } from "~/api/evidence-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { listChecklists, saveChecklist } from "~/models/standards/checklist.server";

/**
 * PUT /api/admin/checklists/{id} `{course_id, title, items}` → 200 with the checklist: its title
 * and items replaced, which clears its review (items already marked on an assessment stay with
 * that record). Administrators.
 */
const handle = apiRoute({
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Checklist");
    const input = parseInput(checklistRequest, await readJsonBody(request));
    const db = getDb();
    await saveChecklist(db, { ...input, id }, { id: admin.id, client: clientAddress(request) });
    return apiJson((await listChecklists(db, input.course_id)).find((c) => c.id === id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
