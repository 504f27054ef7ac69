import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { bearerTokenOf, requireApiUser } from "~/api/auth.server";
import { apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { logoutRequest } from "~/api/schemas";
import { revokeApiToken } from "~/api/auth.server";
import { destroySession } from "~/auth/session.server";
import { revokeAllAccess } from "~/models/user.server";
import { getDb } from "~/db.server";
import { recordSignOut } from "~/auth/sign-in.server";
import { clientAddress } from "~/http/request-context.server";

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
