import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { staffUpdateRequest, userResponse, type UserResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { setStaffActive } from "~/models/staff.server";
import { type ApiOperation, err, FORBIDDEN, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";

/**
 * PUT /api/admin/staff/{id} `{is_active}` → the trainer or administrator, switched off or on
 * (the same rule as the Staff page: never one's own account, never the last active
 * administrator; deactivation ends their sessions and tokens). Administrators only.
 */
const handle = apiRoute({
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Staff account");
    const { is_active } = parseInput(staffUpdateRequest, await readJsonBody(request));
    return apiJson<UserResponse>(await setStaffActive(getDb(), { id, active: is_active, actorId: admin.id, client: clientAddress(request) }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "put",
    path: "/api/admin/staff/{id}",
    operationId: "updateStaff",
    summary: "Deactivate or reactivate a trainer or administrator",
    description:
      "Administrators. `is_active: false` switches the account off and ends its sessions and API tokens at once; `true` switches it back on. Never one's own account, never the last active administrator (409).",
    tags: ["admin"],
    access: "required",
    body: staffUpdateRequest,
    bodyRequired: true,
    responses: {
      200: { description: "The account as it now is", schema: userResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No trainer or administrator has this id"),
      409: err("One's own account, or the last active administrator"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
];
