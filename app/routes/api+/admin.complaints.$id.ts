import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import type { ComplaintResponse } from "~/api/complaint-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { getComplaint } from "~/models/complaints/complaint.server";

/** GET /api/admin/complaints/{id} → one item. Administrators; a trainer for an appeal assigned to them (else 404). */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "admin", "trainer");
    return apiJson<ComplaintResponse>(await getComplaint(getDb(), pathId(params, "Complaint or appeal"), { id: user.id, role: user.role }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
