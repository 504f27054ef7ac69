/**
 * What admin.courses.$id.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { foundOr404 } from "~/route-helpers/page-records.server";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { getCourseDetail } from "~/models/course-admin.server";
export { listCourseClasses } from "~/models/class.server";
