/**
 * What admin.improvements._index.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data } from "@remix-run/node";
export { queryObject } from "~/api/http.server";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { IMPROVEMENT_PAGE_SIZE, listActionOwners, listImprovementActions, type ImprovementAction } from "~/models/standards/improvement.server";
