/**
 * What employer.bookings.new.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { clientAddress } from "~/http/request-context.server";
export { invitationLink } from "~/utils/public-link.server";
export { bookableClasses, createBooking } from "~/models/employers/group-booking.server";
export { refundPolicyInForce } from "~/models/finance/refund-policy.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
export { formIntent } from "~/utils/form-intent.server";
export { formOnce, newFormToken } from "~/models/spent-tokens.server";
