import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import type { TrainerCredentialsResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { getTrainerProfile } from "~/models/standards/trainer-credential.server";

/** GET /api/credentials/my → the signed-in trainer's own credentials, units and activities (what /trainer/credentials shows). */
const handle = apiRoute({
  GET: async ({ request }) => {
    const trainer = await requireApiUser(request, "trainer");
    return apiJson<TrainerCredentialsResponse>(await getTrainerProfile(getDb(), trainer.id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
