import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import { readApiUpload } from "~/api/evidence-routes.server";
import { evidenceFileJson, type EvidenceListResponse, type EvidenceUploadResponse } from "~/api/evidence-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { getFileStore } from "~/files/store.server";
import { clientAddress } from "~/http/request-context.server";
import { addRecognitionEvidence, getRecognition, recognitionEvidence } from "~/models/recognition/recognition.server";

/**
 * GET /api/recognition/{id}/evidence: the application's files (its learner, its assessor,
 * admins). POST (multipart/form-data, parts named `files`): its learner or assessor while it
 * waits, or an admin, adds files through the evidence store's checks.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    const files = await recognitionEvidence(getDb(), user, pathId(params, "Application"));
    return apiJson<EvidenceListResponse>({ files: files.map(evidenceFileJson), signatures: [] }, { headers: { "Cache-Control": "no-store" } });
  },
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    // whose application it is is settled before a byte of the upload is read
    const r = await getRecognition(getDb(), user, pathId(params, "Application"));
    const read = await readApiUpload(request, "Send the files as multipart/form-data, each in a part named files");
    try {
      const added = await addRecognitionEvidence(getDb(), getFileStore(), user, {
        id: r.id,
        actor: { id: user.id, client: clientAddress(request) },
        files: read.files,
        dir: read.dir,
        tooMany: read.tooMany,
      });
      return apiJson<EvidenceUploadResponse>({ files: added.map(evidenceFileJson) }, 201);
    } finally {
      read.dispose();
    }
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
