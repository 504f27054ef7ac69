/**
 * What trainer.classes.$id.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data } from "@remix-run/node";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { getRoster, markAttendance } from "~/models/attendance.server";
export { classReviews } from "~/models/review.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
export { foundOr404 } from "~/route-helpers/page-records.server";
export { clientAddress } from "~/http/request-context.server";
