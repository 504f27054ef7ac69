import type { z } from "zod";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { getHrwAssessment } from "~/models/hrw/hrw-assessment.server";
import type { DB } from "#db/connection";
import type { SignedInActorRef } from "~/models/audit.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "./http.server";
import { clientAddress } from "~/http/request-context.server";

/**
 * POST /api/hrw/assessments/{id}/… : one step an assessor records (notice, part result, NSA),
 * as themselves. The same schema and model as the assessment page; answers 201 with the
 * assessment as it now stands.
 */
export function assessorStep<S extends z.ZodType>(schema: S, record: (db: DB, id: string, input: z.infer<S>, actor: SignedInActorRef) => Promise<void>) {
  const route = apiRoute({
    POST: async ({ request, params }) => {
      const trainer = await requireApiUser(request, "trainer");
      const id = pathId(params, "Assessment");
      const input = parseInput(schema, await readJsonBody(request));
      const db = getDb();
      await record(db, id, input, { id: trainer.id, client: clientAddress(request) });
      return apiJson((await getHrwAssessment(db, id))!, { status: 201 });
    },
  });
  return route;
}
