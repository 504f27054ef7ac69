import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, apiRoute, pathId } from "~/api/http.server";
import { readApiUpload } from "~/api/evidence-routes.server";
import type { TrainerCredentialsResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { activityEvidenceResponse } from "~/route-helpers/serve-file.server";
import { getFileStore } from "~/files/store.server";
import { clientAddress } from "~/http/request-context.server";
import { activityForEvidence, attachActivityEvidence, getTrainerProfile } from "~/models/standards/trainer-credential.server";

/**
 * GET /api/trainer-activities/{id}/evidence: a currency or development activity's evidence file,
 * as an attachment with nosniff, for its own trainer or an administrator (every download
 * audited); anyone else is told it does not exist.
 * POST (multipart/form-data, one file in a part named evidence_file): attaches or replaces it,
 * read as it streams with the evidence store's limits and checks of its bytes.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const response = await activityEvidenceResponse(
      getDb(),
      getFileStore(),
      { id: user.id, role: user.role, client: clientAddress(request) },
      pathId(params, "Activity"),
    );
    if (!response) throw apiError(404, "Activity evidence not found");
    return response;
  },
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const db = getDb();
    const actor = { id: user.id, role: user.role, client: clientAddress(request) };
    // whose activity it is is settled before a byte of the upload is read
    const activity = await activityForEvidence(db, pathId(params, "Activity"), actor);
    const read = await readApiUpload(request, "Send the file as multipart/form-data, in a part named evidence_file");
    try {
      const { trainer_id } = await attachActivityEvidence(db, activity.id, actor, {
        store: getFileStore(),
        files: read.files,
        dir: read.dir,
        tooMany: read.tooMany,
      });
      return apiJson<TrainerCredentialsResponse>(await getTrainerProfile(db, trainer_id));
    } finally {
      read.dispose();
    }
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
