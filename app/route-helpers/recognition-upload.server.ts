import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { addRecognitionEvidence, type RecognitionViewer } from "~/models/recognition/recognition.server";
import { isDomainError } from "~/utils/errors";
import { redirectWithFlash } from "~/utils/flash.server";
import { formFailure } from "~/utils/form-action.server";
import { getFileStore } from "~/files/store.server";
import { BAD_UPLOAD_MESSAGE, BadUpload, readUpload } from "~/files/upload.server";

/**
 * A recognition page's evidence upload (a multipart POST): the files go through the evidence
 * store's checks; the page is answered with a redirect and a message, or the refusal beside the
 * file field (values.intent "upload").
 */
export async function answerRecognitionUpload(request: Request, viewer: RecognitionViewer, id: string, here: string) {
  let read: Awaited<ReturnType<typeof readUpload>>;
  try {
    read = await readUpload(request);
  } catch (error) {
    if (error instanceof BadUpload) return formFailure(BAD_UPLOAD_MESSAGE, { values: { intent: "upload" } });
    throw error;
  }
  try {
    const added = await addRecognitionEvidence(getDb(), getFileStore(), viewer, {
      id,
      actor: { id: viewer.id, client: clientAddress(request) },
      files: read.files,
      dir: read.dir,
      tooMany: read.tooMany,
    });
    return redirectWithFlash(here, { type: "success", message: `Evidence added: ${added.length} file${added.length === 1 ? "" : "s"}` });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return formFailure(error.message, {
      status: error.status,
      fieldErrors: { files: error.fieldErrors?.files ?? error.message },
      values: { intent: "upload" },
    });
  } finally {
    read.dispose();
  }
}
