/**
 * What student.courses.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { attendanceForStudent } from "~/models/attendance.server";
export { classesOfStudent } from "~/models/class.server";
export { waitlistForStudent } from "~/models/waitlist.server";
