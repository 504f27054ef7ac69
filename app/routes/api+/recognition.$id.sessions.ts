import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { sessionBookRequest, type SessionResponse } from "~/api/recognition-rpl-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { bookRecognitionSession, listRecognitionSessions } from "~/models/recognition/recognition-session.server";

/**
 * GET /api/recognition/{id}/sessions → an RPL's competency conversations and practical
 * challenges, cancelled ones included (its learner, its assessor, administrators). POST → 201:
 * its assessor or an administrator books one (the same checks as the page: not past, not double
 * booked, the assessor credentialed on the day).
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    return apiJson<SessionResponse[]>(await listRecognitionSessions(getDb(), user, pathId(params, "Application")));
  },
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const id = pathId(params, "Application");
    const input = parseInput(sessionBookRequest, await readJsonBody(request));
    return apiJson<SessionResponse>(await bookRecognitionSession(getDb(), user, id, input, { id: user.id, client: clientAddress(request) }), 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
