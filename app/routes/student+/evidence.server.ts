/**
 * What student.evidence.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { clientAddress } from "~/http/request-context.server";
export { assessmentFor, ownEvidenceByAssessment, signAssessment } from "~/models/evidence.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
