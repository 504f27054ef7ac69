/**
 * What trainer.hrw.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { assessorCurrency } from "~/models/hrw/hrw-currency.server";
export { getDb } from "~/db.server";
export { listHrwAssessments, noticesDue } from "~/models/hrw/hrw-assessment.server";
export { expiryWarnings, getAssessorRegister } from "~/models/hrw/hrw-register.server";
