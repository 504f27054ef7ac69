import { noFieldsSchema } from "~/schemas/fields";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { addRecognitionEvidence, type RecognitionViewer } from "~/models/recognition/recognition.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { answerUploadForm } from "./upload-form.server";

/**
 * A recognition page's evidence upload (a multipart POST): the files go through the evidence
 * store's checks; the page is answered with a redirect and a message, or the refusal beside the
 * file field. The form holds only its files, so every failure carries values.intent "upload":
 * by it the page shows the refusal at the upload and not at one of its other forms.
 */
export async function answerRecognitionUpload(request: Request, viewer: RecognitionViewer, id: string, here: string) {
  return answerUploadForm(request, {
    // no text fields: the files are the whole form, and the model checks them
    schema: noFieldsSchema,
    values: { intent: "upload" },
    fieldErrors: (error) => ({ files: error.fieldErrors?.files ?? error.message }),
    save: async (_input, upload) => {
      const added = await addRecognitionEvidence(getDb(), upload.store, viewer, {
        id,
        actor: { id: viewer.id, client: clientAddress(request) },
        files: upload.files,
        dir: upload.dir,
        tooMany: upload.tooMany,
      });
      return redirectWithFlash(here, { type: "success", message: `Evidence added: ${added.length} file${added.length === 1 ? "" : "s"}` });
    },
  });
}
