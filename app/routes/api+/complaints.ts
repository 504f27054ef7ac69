import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { complaintRequest, type LodgedResponse } from "~/api/complaint-schemas";
import { organisation } from "~/env.server";
import { getOptionalApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { lodgeComplaint } from "~/models/complaints/complaint-lodging.server";

/**
 * POST /api/complaints → 201 with the reference and clocks. Anyone (the public complaint page's
 * model call): a visitor may stay anonymous; a signed-in caller's complaint is linked to them.
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const user = await getOptionalApiUser(request);
    const input = parseInput(complaintRequest, await readJsonBody(request));
    const lodged = await lodgeComplaint(getDb(), input, { by: { id: user?.id ?? null, client: clientAddress(request) }, rto: organisation() });
    return apiJson<LodgedResponse>(lodged, 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
