/**
 * What admin.recognition.$id.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { answerRecognitionUpload } from "~/route-helpers/recognition-upload.server";
export { isMultipart } from "~/files/upload.server";
export { clientAddress } from "~/http/request-context.server";
export { listLocations } from "~/models/location.server";
export { assessorChoicesFor, recognitionDecisions } from "~/models/recognition/recognition-decisions.server";
export {
  assignRecognitionAssessor,
  authenticateCreditTransfer,
  decideRecognition,
  getRecognition,
  recognitionEvidence,
} from "~/models/recognition/recognition.server";
export { listRefereeRequests, requestRefereeReport } from "~/models/recognition/recognition-referee.server";
export {
  bookRecognitionSession,
  cancelRecognitionSession,
  listRecognitionSessions,
  rescheduleRecognitionSession,
} from "~/models/recognition/recognition-session.server";
export { answerForm, formFailure } from "~/utils/form-action.server";
export { formIntent } from "~/utils/form-intent.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { readOrRefuse } from "~/route-helpers/page-records.server";
