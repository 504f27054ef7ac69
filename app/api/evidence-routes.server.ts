import { getDb } from "~/db.server";
import { BAD_UPLOAD_MESSAGE, BadUpload, isMultipart, readUpload, type ReadUpload } from "~/files/upload.server";
import { assessmentFor, type EvidenceAssessment, type EvidenceViewer } from "~/models/evidence.server";
import { assessmentRefSchema } from "~/schemas/evidence";
import { notFound } from "~/utils/errors";
import { apiError, type ApiArgs } from "./http.server";

/**
 * The assessment an /api path names (/api/assessments/{kind}/{id}/…), if the caller may see it:
 * an unknown kind, a malformed id and another trainer's assessment are all "not found".
 */
export async function pathAssessment(viewer: EvidenceViewer, params: ApiArgs["params"]): Promise<EvidenceAssessment> {
  const ref = assessmentRefSchema.safeParse({ kind: params.kind, id: params.id?.toLowerCase() });
  if (!ref.success) throw notFound("Assessment");
  return assessmentFor(getDb(), viewer, ref.data);
}

/** An /api upload read as it streams: 415 when the body is not multipart (`how` says what to send), 400 when it cannot be read. */
export async function readApiUpload(request: Request, how: string): Promise<ReadUpload> {
  if (!isMultipart(request)) throw apiError(415, how);
  try {
    return await readUpload(request);
  } catch (error) {
    if (error instanceof BadUpload) throw apiError(400, BAD_UPLOAD_MESSAGE);
    throw error;
  }
}
