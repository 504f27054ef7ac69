/**
 * What complaints.new.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { getOptionalUser } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { organisation } from "~/env.server";
export { clientAddress } from "~/http/request-context.server";
export { lodgeComplaint } from "~/models/complaints/complaint-lodging.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { retryAfterFromAction } from "~/utils/http.server";
