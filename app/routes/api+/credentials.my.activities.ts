import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { trainerActivityRequest, type TrainerCredentialsResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { addActivity, getTrainerProfile } from "~/models/standards/trainer-credential.server";

/**
 * POST /api/credentials/my/activities → the signed-in trainer records their own industry currency
 * or professional development; it waits for an administrator's confirmation.
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const trainer = await requireApiUser(request, "trainer");
    const input = parseInput(trainerActivityRequest, await readJsonBody(request));
    const db = getDb();
    await addActivity(db, trainer.id, input, {
      id: trainer.id,
      client: clientAddress(request),
      role: "trainer",
    });
    return apiJson<TrainerCredentialsResponse>(await getTrainerProfile(db, trainer.id), { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
