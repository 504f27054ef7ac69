import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { trainerUnitRequest, type TrainerCredentialsResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getTrainerProfile, recordTrainerUnit } from "~/models/standards/trainer-credential.server";

/**
 * POST /api/admin/trainers/{id}/units → records (or replaces) the trainer's competency in a unit,
 * held or equivalent with its evidence; answers the trainer's credentials. Administrators.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Trainer");
    const input = parseInput(trainerUnitRequest, await readJsonBody(request));
    const db = getDb();
    await recordTrainerUnit(db, id, input, {
      id: admin.id,
      client: clientAddress(request),
    });
    return apiJson<TrainerCredentialsResponse>(await getTrainerProfile(db, id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
