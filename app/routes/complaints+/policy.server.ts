/**
 * What complaints.policy.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { getDb } from "~/db.server";
export { organisation } from "~/env.server";
export { complaintSettings } from "~/models/complaints/complaint-clocks.server";
