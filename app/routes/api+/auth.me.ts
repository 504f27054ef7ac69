import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { ownRecord } from "~/models/personal-data.server";
import { apiJson, apiRoute } from "~/api/http.server";
import { type UserResponse } from "~/api/schemas";

/** GET /api/auth/me → the signed-in user, never a hash or token. */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request);
    return apiJson<UserResponse>(ownRecord(user));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
