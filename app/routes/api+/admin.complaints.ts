import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import type { ComplaintResponse } from "~/api/complaint-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { listComplaints } from "~/models/complaints/complaint.server";
import { complaintListQuery } from "~/schemas/complaint";

/**
 * GET /api/admin/complaints?kind=&status=&overdue= → the register, overdue first. Administrators
 * read every item; a trainer the appeals assigned to them to decide.
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request, "admin", "trainer");
    const query = parseInput(complaintListQuery, queryObject(request));
    return apiJson<ComplaintResponse[]>(await listComplaints(getDb(), query, { id: user.id, role: user.role }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
