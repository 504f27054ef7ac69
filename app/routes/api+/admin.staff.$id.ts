import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { staffUpdateRequest, type UserResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { setStaffActive } from "~/models/staff.server";

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
