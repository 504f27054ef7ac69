/**
 * What trainer.assessments.new.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { recordAssessment } from "~/models/assessment.server";
export { ENROLLMENT_OPTION_LIMIT, getEnrollmentForTrainer, listCurrentEnrollmentOptions } from "~/models/trainer-students.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { clientAddress } from "~/http/request-context.server";
