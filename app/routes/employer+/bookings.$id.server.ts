/**
 * What employer.bookings.$id.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { clientAddress } from "~/http/request-context.server";
export { invitationLink } from "~/utils/public-link.server";
export { getBooking } from "~/models/employers/employer-view.server";
export { addWorkers } from "~/models/employers/group-booking.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
export { readOrRefuse } from "~/route-helpers/page-records.server";
