/**
 * What student.recognition_.$id.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { answerRecognitionUpload } from "~/route-helpers/recognition-upload.server";
export { isMultipart } from "~/files/upload.server";
export { recognitionDecisions } from "~/models/recognition/recognition-decisions.server";
export { getRecognition, recognitionEvidence } from "~/models/recognition/recognition.server";
export { listRefereeRequests } from "~/models/recognition/recognition-referee.server";
export { listRecognitionSessions } from "~/models/recognition/recognition-session.server";
export { formFailure } from "~/utils/form-action.server";
export { readOrRefuse } from "~/route-helpers/page-records.server";
