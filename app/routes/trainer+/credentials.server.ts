/**
 * What trainer.credentials.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { clientAddress } from "~/http/request-context.server";
export { addActivity, getTrainerProfile } from "~/models/standards/trainer-credential.server";
export { isMultipart } from "~/files/upload.server";
export { answerActivityForm } from "~/route-helpers/activity-form.server";
export { answerForm, formFailure } from "~/utils/form-action.server";
export { formIntent } from "~/utils/form-intent.server";
export { redirectWithFlash } from "~/utils/flash.server";
