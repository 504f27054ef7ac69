/**
 * What employer.overview.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { employerOfUser } from "~/models/employers/employer.server";
export { listBookings, listWorkers, upcomingDeadlines } from "~/models/employers/employer-view.server";
