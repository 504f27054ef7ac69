/**
 * What admin.reports_.hrw.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data, redirectDocument } from "@remix-run/node";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { HRW_REPORT_LIMIT, listHrwAssessments, type HrwAssessment } from "~/models/hrw/hrw-assessment.server";
