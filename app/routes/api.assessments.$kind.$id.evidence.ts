import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import type { EvidenceListResponse } from "~/api/evidence-schemas";
import { requireApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
import { assessmentFor, listEvidence, listSignatures } from "~/models/evidence.server";
import { assessmentRefSchema } from "~/schemas/evidence";
import { notFound } from "~/utils/errors";

/**
 * GET /api/assessments/{kind}/{id}/evidence: the files attached to an assessment and its signed
 * declarations, for the learner, the assessor and admins (the same model calls as the evidence
 * pages); any other assessment is a 404.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    const ref = assessmentRefSchema.safeParse({ kind: params.kind, id: params.id?.toLowerCase() });
    if (!ref.success) throw notFound("Assessment");
    const db = getDb();
    const assessment = await assessmentFor(db, user, ref.data);
    const [files, signatures] = await Promise.all([listEvidence(db, assessment), listSignatures(db, assessment)]);
    return apiJson<EvidenceListResponse>(
      {
        files: files.map((f) => ({
          id: f.id,
          original_name: f.original_name,
          media_type: f.media_type,
          size_bytes: f.size_bytes,
          sha256: f.sha256,
          uploaded_at: f.uploaded_at,
          uploaded_by: f.uploaded_by,
          keep_until: f.keep_until,
          download: `/evidence/${f.id}/download`,
        })),
        signatures: signatures.map((s) => ({ role: s.role, full_name: s.full_name, signed_at: s.signed_at })),
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
