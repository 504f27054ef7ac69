import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import type { TrainerCredentialsResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { confirmActivity, getTrainerProfile } from "~/models/standards/trainer-credential.server";

/**
 * POST /api/admin/trainer-activities/{id}/confirm → an administrator confirms a trainer's own
 * activity (once; again is a 409); answers that trainer's credentials.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const db = getDb();
    const { trainer_id } = await confirmActivity(db, pathId(params, "Activity"), { id: admin.id, client: clientAddress(request) });
    return apiJson<TrainerCredentialsResponse>(await getTrainerProfile(db, trainer_id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
