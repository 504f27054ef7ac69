import type { z } from "zod";
import type { Role } from "#db/schema";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getRecognition, type RecognitionViewer } from "~/models/recognition/recognition.server";
import type { DB } from "#db/connection";
import type { SignedInActorRef } from "~/models/audit.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "./http.server";
import type { RecognitionResponse } from "./recognition-schemas";

/**
 * One staff step on an application over /api (POST /api/recognition/{id}/…): the caller's role,
 * the body through the page's schema made strict, the model's step, and the application as it
 * now stands.
 */
export function recognitionStep<S extends z.ZodType>(
  schema: S,
  roles: Role[],
  step: (db: DB, viewer: RecognitionViewer, id: string, input: z.infer<S>, actor: SignedInActorRef) => Promise<unknown>,
) {
  return apiRoute({
    POST: async ({ request, params }) => {
      const user = await requireApiUser(request, ...roles);
      const id = pathId(params, "Application");
      const input = parseInput(schema, await readJsonBody(request));
      const db = getDb();
      await step(db, user, id, input, { id: user.id, client: clientAddress(request) });
      return apiJson<RecognitionResponse>(await getRecognition(db, user, id));
    },
  });
}
