/**
 * What employer-invitation.$token.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { getDb } from "~/db.server";
export { readOrRefuse } from "~/route-helpers/page-records.server";
export { acceptEmployerInvitation, employerInvitationFor } from "~/models/employers/employer.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
