/**
 * What admin.reports.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data } from "@remix-run/node";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { getReportCharts } from "~/avetmiss/export.server";
export { getReadiness } from "~/avetmiss/readiness.server";
export { getComplianceChecks, getEnrollmentStatistics } from "~/models/report.server";
export { reportYear } from "~/route-helpers/avetmiss-download.server";
export { organisation } from "~/env.server";
