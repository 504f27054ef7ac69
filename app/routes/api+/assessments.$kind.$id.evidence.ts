import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import { pathAssessment, readApiUpload } from "~/api/evidence-routes.server";
import { evidenceFileJson, type EvidenceListResponse, type EvidenceUploadResponse } from "~/api/evidence-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { getFileStore } from "~/files/store.server";
import { clientAddress } from "~/http/request-context.server";
import { addEvidence, listEvidence, listSignatures } from "~/models/evidence.server";

/**
 * GET /api/assessments/{kind}/{id}/evidence: the files attached to an assessment and its signed
 * declarations, for the learner, the assessor and admins (the same model calls as the evidence
 * pages); any other assessment is a 404.
 * POST (multipart/form-data, parts named `files`): its assessor adds files, read as they
 * stream with the same 25 MB limit and checks of their bytes as the evidence page's form.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    const db = getDb();
    const assessment = await pathAssessment(user, params);
    const [files, signatures] = await Promise.all([listEvidence(db, assessment), listSignatures(db, assessment)]);
    return apiJson<EvidenceListResponse>(
      { files: files.map(evidenceFileJson), signatures: signatures.map((s) => ({ role: s.role, full_name: s.full_name, signed_at: s.signed_at })) },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer");
    // whose assessment it is is settled before a byte of the upload is read
    const assessment = await pathAssessment(user, params);
    const read = await readApiUpload(request, "Send the files as multipart/form-data, each in a part named files");
    try {
      const added = await addEvidence(getDb(), getFileStore(), {
        assessment,
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
