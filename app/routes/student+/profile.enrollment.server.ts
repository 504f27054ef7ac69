/**
 * What student.profile.enrollment.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { getAvetmissDetails, updateEnrollmentDetails } from "~/models/avetmiss-details.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { clientAddress } from "~/http/request-context.server";
