import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { ownRecord } from "~/models/personal-data.server";
import { apiJson, apiRoute } from "~/api/http.server";
import { type UserResponse, userResponse } from "~/api/schemas";
import { type ApiOperation, UNAUTHENTICATED } from "~/api/operation";

/** GET /api/auth/me → the signed-in user, never a hash or token. */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request);
    return apiJson<UserResponse>(ownRecord(user));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/auth/me",
    operationId: "getCurrentUser",
    summary: "The signed-in user",
    description: "Any signed-in user. Never contains a password hash or token.",
    tags: ["auth"],
    access: "required",
    responses: { 200: { description: "The user", schema: userResponse }, 401: UNAUTHENTICATED },
  },
];
