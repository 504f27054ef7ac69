import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parsePartialInput, pathId, readJsonBody } from "~/api/http.server";
import { checklistRequest } from "~/api/evidence-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getChecklist, saveChecklist } from "~/models/standards/checklist.server";
import { notFound } from "~/utils/errors";

/**
 * PUT /api/admin/checklists/{id} `{course_id, title, items}` → 200 with the checklist: the fields
 * sent replace its own (a field left out keeps its value), which clears its review (items
 * already marked on an assessment stay with that record). Administrators.
 */
const handle = apiRoute({
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Checklist");
    const db = getDb();
    const found = await getChecklist(db, id);
    if (!found) throw notFound("Checklist");
    const current = { course_id: found.course.id, title: found.title, items: found.items.map(({ text, maps_to, nai_part }) => ({ text, maps_to, nai_part })) };
    const input = parsePartialInput(checklistRequest, await readJsonBody(request), current);
    await saveChecklist(db, { ...input, id }, { id: admin.id, client: clientAddress(request) });
    return apiJson(await getChecklist(db, id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
