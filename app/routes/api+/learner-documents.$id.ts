import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiRoute, pathId } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { learnerDocumentResponse } from "~/route-helpers/serve-file.server";
import { getFileStore } from "~/files/store.server";
import { clientAddress } from "~/http/request-context.server";

/**
 * GET /api/learner-documents/{id}: a learner's document (White Card, photo ID, licence) as an
 * attachment with nosniff, for that learner or an administrator (each administrator's download
 * audited); anyone else is told it does not exist. The Student Profile links here too.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "admin");
    const response = await learnerDocumentResponse(
      getDb(),
      getFileStore(),
      { id: user.id, role: user.role, client: clientAddress(request) },
      pathId(params, "Document"),
    );
    if (!response) throw apiError(404, "Document not found");
    return response;
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
