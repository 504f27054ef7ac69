import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { refereeRequestRequest, type RefereeRequestResponse } from "~/api/recognition-rpl-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { listRefereeRequests, requestRefereeReport } from "~/models/recognition/recognition-referee.server";

/**
 * GET /api/recognition/{id}/referee-requests → an RPL's third-party reports as the caller may
 * read them (the learner: who was asked and whether it arrived). POST → 201: its assessor or an
 * administrator asks a referee, who is mailed a single-use link.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    return apiJson<RefereeRequestResponse[]>(await listRefereeRequests(getDb(), user, pathId(params, "Application")), {
      headers: { "Cache-Control": "no-store" },
    });
  },
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const id = pathId(params, "Application");
    const input = parseInput(refereeRequestRequest, await readJsonBody(request));
    const { request: asked } = await requestRefereeReport(getDb(), user, id, input, { id: user.id, client: clientAddress(request) });
    return apiJson<RefereeRequestResponse>(asked, 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
