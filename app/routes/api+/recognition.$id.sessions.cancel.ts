import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { sessionCancelRequest } from "~/api/recognition-rpl-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { cancelRecognitionSession } from "~/models/recognition/recognition-session.server";

/**
 * POST /api/recognition/{id}/sessions/cancel → 204: the RPL's assessor or an administrator
 * cancels a booked session with the reason (the page's Cancel form); the row stays, marked, and
 * the learner is mailed.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const id = pathId(params, "Application");
    const input = parseInput(sessionCancelRequest, await readJsonBody(request));
    await cancelRecognitionSession(getDb(), user, id, input, { id: user.id, client: clientAddress(request) });
    return new Response(null, { status: 204 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
