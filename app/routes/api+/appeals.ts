import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { appealRequest, type ComplaintResponse, type LodgedResponse } from "~/api/complaint-schemas";
import { organisation } from "~/env.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { listComplaints } from "~/models/complaints/complaint.server";
import { lodgeAppeal } from "~/models/complaints/complaint-lodging.server";

/**
 * GET /api/appeals → the learner's own appeals; POST → 201 with the reference of an appeal of
 * one of their own assessments (another's is a 404). Learners; the appeal page's model call.
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request, "student");
    return apiJson<ComplaintResponse[]>(await listComplaints(getDb(), { kind: "appeal" }, { id: user.id, role: user.role }));
  },
  POST: async ({ request }) => {
    const user = await requireApiUser(request, "student");
    const input = parseInput(appealRequest, await readJsonBody(request));
    return apiJson<LodgedResponse>(await lodgeAppeal(getDb(), input, { by: { id: user.id, client: clientAddress(request) }, rto: organisation() }), 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
