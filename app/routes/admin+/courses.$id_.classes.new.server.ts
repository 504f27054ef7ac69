/**
 * What admin.courses.$id_.classes.new.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { createClass, listClassTrainers } from "~/models/class.server";
export { getCourse } from "~/models/course.server";
export { listLocations } from "~/models/location.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
export { sessionRowsAnswer } from "~/route-helpers/class-form-action.server";
export { foundOr404 } from "~/route-helpers/page-records.server";
export { clientAddress } from "~/http/request-context.server";
