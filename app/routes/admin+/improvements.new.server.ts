/**
 * What admin.improvements.new.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { queryObject } from "~/api/http.server";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { clientAddress } from "~/http/request-context.server";
export { createImprovementAction, describeImprovementSource, listActionOwners } from "~/models/standards/improvement.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
