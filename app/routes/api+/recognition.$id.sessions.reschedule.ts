import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { sessionRescheduleRequest, type SessionResponse } from "~/api/recognition-rpl-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { rescheduleRecognitionSession } from "~/models/recognition/recognition-session.server";

/**
 * POST /api/recognition/{id}/sessions/reschedule → 200: the RPL's assessor or an administrator
 * moves a booked session (the page's Move form: the same checks as booking); the learner is mailed.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const id = pathId(params, "Application");
    const input = parseInput(sessionRescheduleRequest, await readJsonBody(request));
    return apiJson<SessionResponse>(await rescheduleRecognitionSession(getDb(), user, id, input, { id: user.id, client: clientAddress(request) }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
