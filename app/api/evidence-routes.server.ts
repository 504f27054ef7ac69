import { getDb } from "~/db.server";
import { assessmentFor, type EvidenceAssessment, type EvidenceViewer } from "~/models/evidence.server";
import { assessmentRefSchema } from "~/schemas/evidence";
import { notFound } from "~/utils/errors";
import type { ApiArgs } from "./http.server";

/**
 * The assessment an /api path names (/api/assessments/{kind}/{id}/…), if the caller may see it:
 * an unknown kind, a malformed id and another trainer's assessment are all "not found".
 */
export async function pathAssessment(viewer: EvidenceViewer, params: ApiArgs["params"]): Promise<EvidenceAssessment> {
  const ref = assessmentRefSchema.safeParse({ kind: params.kind, id: params.id?.toLowerCase() });
  if (!ref.success) throw notFound("Assessment");
  return assessmentFor(getDb(), viewer, ref.data);
}
