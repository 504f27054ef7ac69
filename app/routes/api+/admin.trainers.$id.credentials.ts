import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { trainingCredentialRequest, type TrainerCredentialsResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { addTrainingCredential, getTrainerProfile } from "~/models/standards/trainer-credential.server";

/**
 * GET /api/admin/trainers/{id}/credentials → the trainer's credentials, units, activities and
 * standing (what /admin/credentials/{id} shows); POST records a training and assessment
 * credential, or work under a named credentialed trainer's direction, with that page's schema
 * and model. Administrators.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiUser(request, "admin");
    return apiJson<TrainerCredentialsResponse>(await getTrainerProfile(getDb(), pathId(params, "Trainer")));
  },
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Trainer");
    const input = parseInput(trainingCredentialRequest, await readJsonBody(request));
    const db = getDb();
    await addTrainingCredential(db, id, input, {
      id: admin.id,
      client: clientAddress(request),
    });
    return apiJson<TrainerCredentialsResponse>(await getTrainerProfile(db, id), { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
