/**
 * What admin.courses.$id_.edit.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { foundOr404 } from "~/route-helpers/page-records.server";
export { requireRole } from "~/auth/guards.server";
export { answerCourseForm } from "~/route-helpers/course-form-action.server";
export { getDb } from "~/db.server";
export { updateCourse } from "~/models/course-admin.server";
export { getCourse } from "~/models/course.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { clientAddress } from "~/http/request-context.server";
