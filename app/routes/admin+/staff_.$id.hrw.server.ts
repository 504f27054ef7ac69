/**
 * What admin.staff_.$id.hrw.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { addAccreditation, getAssessorRegister, removeAccreditation, setAssessorLicence } from "~/models/hrw/hrw-register.server";
export { assessorCurrency, completeRegulatorTask, listRegulatorTasks } from "~/models/hrw/hrw-currency.server";
export { answerForm, formFailure } from "~/utils/form-action.server";
export { formIntent } from "~/utils/form-intent.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { clientAddress } from "~/http/request-context.server";
export { foundOr404 } from "~/route-helpers/page-records.server";
