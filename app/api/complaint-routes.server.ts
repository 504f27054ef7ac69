import type { z } from "zod";
import type { Role } from "#db/schema";
import type { DB } from "#db/connection";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import type { SignedInActorRef } from "~/models/audit.server";
import { getComplaint } from "~/models/complaints/complaint.server";
import type { ComplaintReader } from "~/models/personal-data.server";
import type { ComplaintResponse } from "./complaint-schemas";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "./http.server";

/** The organisation the clocks' settings and the default policy are written for. */

/**
 * POST /api/admin/complaints/{id}/… : one step on a register item (acknowledge, assign,
 * resolve), by the roles given, as themselves and read as they may read it (a trainer reaches
 * only the appeals assigned to them). The same schema and model as the item's page; answers
 * the item as it now stands.
 */
export function complaintStep<S extends z.ZodType>(
  schema: S,
  roles: Role[],
  step: (db: DB, id: string, input: z.infer<S>, actor: SignedInActorRef, reader: ComplaintReader) => Promise<void>,
  options: { bodyOptional?: boolean } = {},
) {
  return apiRoute({
    POST: async ({ request, params }) => {
      const user = await requireApiUser(request, ...roles);
      const id = pathId(params, "Complaint or appeal");
      const input = parseInput(schema, await readJsonBody(request, { optional: options.bodyOptional }));
      const db = getDb();
      const reader = { id: user.id, role: user.role };
      await step(db, id, input, { id: user.id, client: clientAddress(request) }, reader);
      return apiJson<ComplaintResponse>(await getComplaint(db, id, reader));
    },
  });
}
