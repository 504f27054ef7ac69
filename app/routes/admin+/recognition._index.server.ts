/**
 * What admin.recognition._index.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { queryObject } from "~/api/http.server";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { listRecognitions } from "~/models/recognition/recognition.server";
