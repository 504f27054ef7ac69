import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiRoute, pathId } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { evidenceResponse } from "~/route-helpers/serve-file.server";
import { getFileStore } from "~/files/store.server";
import { clientAddress } from "~/http/request-context.server";

/**
 * GET /api/evidence/{id}/download: one evidence file's bytes, as an attachment with nosniff, for
 * the learner it belongs to, its assessor or an admin (the same code as the pages' download);
 * each staff download is audited. Anyone else is told it does not exist.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    const id = pathId(params, "Evidence file");
    const response = await evidenceResponse(getDb(), getFileStore(), { id: user.id, role: user.role, client: clientAddress(request) }, id);
    if (!response) throw apiError(404, "Evidence file not found");
    return response;
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
