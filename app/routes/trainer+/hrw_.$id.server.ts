/**
 * What trainer.hrw_.$id.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { getHrwAssessment, recordNotice, recordNsa, recordPartResult, rescheduleAssessment } from "~/models/hrw/hrw-assessment.server";
export { latestAen } from "~/models/hrw/hrw-candidate.server";
export { coveringAccreditation } from "~/models/hrw/hrw-register.server";
export { stateRulesOn } from "~/models/hrw/hrw-rules.server";
export { answerForm, formFailure } from "~/utils/form-action.server";
export { formIntent } from "~/utils/form-intent.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { clientAddress } from "~/http/request-context.server";
export { foundOr404 } from "~/route-helpers/page-records.server";
