/**
 * What student.appeals_.$kind.$id.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { jsonResponse } from "~/utils/http.server";
export { readOrRefuse } from "~/route-helpers/page-records.server";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { organisation } from "~/env.server";
export { clientAddress } from "~/http/request-context.server";
export { lodgeAppeal } from "~/models/complaints/complaint-lodging.server";
export { assessmentFor } from "~/models/evidence.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
