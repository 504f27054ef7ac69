/**
 * What trainer.hrw_.book.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { bookAssessment, bookingOptions } from "~/models/hrw/hrw-assessment.server";
export { getCandidateChecks, searchCandidates } from "~/models/hrw/hrw-candidate.server";
export { candidateChecksFor } from "~/models/personal-data.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { clientAddress } from "~/http/request-context.server";
