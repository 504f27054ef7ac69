import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import { requireApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
import { listChecklists } from "~/models/checklist.server";

/** GET /api/admin/checklists → every observation checklist with its items, as /admin/checklists shows them (administrators). */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    return apiJson(await listChecklists(getDb()), { headers: { "Cache-Control": "no-store" } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
