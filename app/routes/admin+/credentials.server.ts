/**
 * What admin.credentials.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { credentialMatrixPage, expiringCredentials, MATRIX_TRAINERS_PER_PAGE } from "~/models/standards/trainer-credential.server";
export { searchedListQuery } from "~/schemas/page-queries";
