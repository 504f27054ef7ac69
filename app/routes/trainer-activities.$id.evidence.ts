import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { activityEvidenceResponse } from "~/route-helpers/serve-file.server";
import { getFileStore } from "~/files/store.server";
import { clientAddress } from "~/http/request-context.server";
import { uuid } from "~/schemas/fields";
import { fileNotFound } from "~/route-helpers/file-refusal.server";

/**
 * GET /trainer-activities/:id/evidence: a currency or development activity's evidence file for
 * its own trainer or an administrator (each download audited); 404 for anyone else.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer", "admin");
  const id = uuid.safeParse(params.id);
  const response = id.success
    ? await activityEvidenceResponse(getDb(), getFileStore(), { id: user.id, role: user.role, client: clientAddress(request) }, id.data)
    : null;
  if (!response) throw fileNotFound("Evidence file not found");
  return response;
}
