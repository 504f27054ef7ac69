import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { trainerActivityRequest, type TrainerCredentialsResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { addActivity, getTrainerProfile } from "~/models/standards/trainer-credential.server";

/**
 * POST /api/admin/trainers/{id}/activities → an administrator records a trainer's industry
 * currency or professional development, confirmed as made; answers the trainer's credentials.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Trainer");
    const input = parseInput(trainerActivityRequest, await readJsonBody(request));
    const db = getDb();
    await addActivity(db, id, input, {
      id: admin.id,
      client: clientAddress(request),
      role: "admin",
    });
    return apiJson<TrainerCredentialsResponse>(await getTrainerProfile(db, id), { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
