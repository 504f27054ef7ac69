import type { ActionFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { getFileStore } from "~/files/store.server";
import { BAD_UPLOAD_MESSAGE, BadUpload, readUpload } from "~/files/upload.server";
import { clientAddress } from "~/http/request-context.server";
import { addEvidence, assessmentFor } from "~/models/evidence.server";
import { assessmentRefSchema } from "~/schemas/evidence";
import { isDomainError } from "~/utils/errors";

/**
 * POST /trainer/evidence/:kind/:id/upload: the evidence page's upload when JavaScript runs (by
 * XMLHttpRequest, so its progress shows), answered in JSON; the same model call as the page's
 * own multipart form.
 */
/** Only POST: a GET (a typed address, a crawler) is told so. */
export function loader() {
  return new Response("Method not allowed: upload evidence with POST", { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const ref = assessmentRefSchema.safeParse(params);
  if (!ref.success) return Response.json({ error: "Assessment not found" }, { status: 404 });
  // whose assessment it is is settled before a byte of the upload is read
  let assessment: Awaited<ReturnType<typeof assessmentFor>>;
  try {
    assessment = await assessmentFor(getDb(), user, ref.data);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return Response.json({ error: error.message }, { status: error.status });
  }
  let read: Awaited<ReturnType<typeof readUpload>>;
  try {
    read = await readUpload(request);
  } catch (error) {
    if (error instanceof BadUpload) return Response.json({ error: BAD_UPLOAD_MESSAGE }, { status: 400 });
    throw error;
  }
  try {
    const added = await addEvidence(getDb(), getFileStore(), {
      assessment,
      actor: { id: user.id, client: clientAddress(request) },
      files: read.files,
      dir: read.dir,
      tooMany: read.tooMany,
    });
    return Response.json({ message: `Evidence added: ${added.length} file${added.length === 1 ? "" : "s"}`, files: added.map((f) => f.id) });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return Response.json({ error: error.message, fieldErrors: error.fieldErrors }, { status: error.status });
  } finally {
    read.dispose();
  }
}
