/**
 * What student.recognition.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { queryObject } from "~/api/http.server";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { clientAddress } from "~/http/request-context.server";
export { applyWithFiles, listRecognitions, recognitionChoices } from "~/models/recognition/recognition.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { BAD_UPLOAD_MESSAGE, BadUpload, isMultipart, readUpload } from "~/files/upload.server";
export { answerForm, formFailure } from "~/utils/form-action.server";
export { getFileStore } from "~/files/store.server";
