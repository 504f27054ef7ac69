import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { bearerTokenOf, requireApiUser } from "~/auth/api.server";
import { apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { logoutRequest } from "~/api/schemas";
import { revokeApiToken } from "~/auth/api.server";
import { destroySession, revokeAllAccess } from "~/auth/session.server";
import { getDb } from "~/db.server";
import { recordSignOut } from "~/auth/sign-in.server";
import { clientAddress } from "~/http/request-context.server";
import { type ApiOperation, INVALID, MALFORMED, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";

/**
 * POST /api/auth/logout → 204. Revokes the bearer token sent, or ends the browser session
 * when called with the cookie (same origin only); `{"everywhere": true}` ends every session
 * and token of the user.
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const user = await requireApiUser(request);
    const input = parseInput(logoutRequest, await readJsonBody(request, { optional: true }));
    const db = getDb();
    const token = bearerTokenOf(request);
    const headers = new Headers({ "Cache-Control": "no-store" });
    if (input.everywhere) await revokeAllAccess(db, user.id);
    if (token) await revokeApiToken(db, token);
    else headers.append("Set-Cookie", await destroySession(db, request));
    await recordSignOut(db, { userId: user.id, client: clientAddress(request) });
    return new Response(null, { status: 204, headers });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "post",
    path: "/api/auth/logout",
    operationId: "logout",
    summary: "Sign out",
    description:
      "Revokes the bearer token sent (or ends the browser session when called with the session cookie). With `{\"everywhere\": true}` every session and token of the user ends.",
    tags: ["auth"],
    access: "required",
    body: logoutRequest,
    bodyRequired: false,
    responses: {
      204: { description: "Signed out" },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
];
