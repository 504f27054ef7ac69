import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { checklistRequest } from "~/api/evidence-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getChecklist, listChecklists, saveChecklist } from "~/models/standards/checklist.server";

/**
 * GET /api/admin/checklists → every observation checklist with its items, as /admin/checklists shows them (administrators).
 * POST `{course_id, title, items: [{maps_to, text, nai_part}]}` → 201 with the new checklist,
 * not yet reviewed before use (saveChecklist, as the page's form).
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    return apiJson(await listChecklists(getDb()), { headers: { "Cache-Control": "no-store" } });
  },
  POST: async ({ request }) => {
    const admin = await requireApiUser(request, "admin");
    const input = parseInput(checklistRequest, await readJsonBody(request));
    const db = getDb();
    const id = await saveChecklist(db, input, { id: admin.id, client: clientAddress(request) });
    return apiJson(await getChecklist(db, id), 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
