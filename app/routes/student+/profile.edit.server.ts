/**
 * What student.profile.edit.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { ownRecord } from "~/models/personal-data.server";
export { getDb } from "~/db.server";
export { updateOwnProfile } from "~/models/user.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
export { clientAddress } from "~/http/request-context.server";
