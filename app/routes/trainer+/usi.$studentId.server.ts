/**
 * What trainer.usi.$studentId.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { foundOr404 } from "~/route-helpers/page-records.server";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { getStudentById } from "~/models/user.server";
export { usiCheckFor } from "~/models/personal-data.server";
export { usiVerifiedMessage, verifyUsiAndIssue } from "~/models/usi-verification.server";
export { clientAddress } from "~/http/request-context.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { noFieldsSchema } from "~/schemas/fields";
