import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { getFileStore } from "~/files/store.server";
import { evidenceResponse } from "~/route-helpers/serve-file.server";
import { clientAddress } from "~/http/request-context.server";
import { uuid } from "~/schemas/fields";
import { fileNotFound } from "~/route-helpers/file-refusal.server";

/**
 * GET /evidence/:id/download (?thumbnail=1 for the list's picture): an evidence file for the
 * signed-in learner it belongs to, its assessor, or an admin; 404 for anyone else.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = uuid.safeParse(params.id);
  const thumbnail = new URL(request.url).searchParams.get("thumbnail") === "1";
  const response = id.success
    ? await evidenceResponse(getDb(), getFileStore(), { id: user.id, role: user.role, client: clientAddress(request) }, id.data, thumbnail)
    : null;
  if (!response) throw fileNotFound("Evidence file not found");
  return response;
}
