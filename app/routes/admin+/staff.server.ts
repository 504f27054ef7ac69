/**
 * What admin.staff.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { listStaff, setStaffActive } from "~/models/staff.server";
export { resetTwoStep } from "~/auth/two-step.server";
export { listAccreditationsByTrainer } from "~/models/hrw/hrw-register.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm, type FailedForm } from "~/utils/form-action.server";
export { formIntent } from "~/utils/form-intent.server";
export { clientAddress } from "~/http/request-context.server";
export { providerSettings } from "~/auth/single-sign-on.server";
export { setRequireSsoForStaff, signInSettings } from "~/models/sign-in-settings.server";
