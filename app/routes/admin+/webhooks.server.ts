/**
 * What admin.webhooks.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { createWebhookEndpoint, listWebhookEndpoints } from "~/models/webhooks.server";
export { answerForm } from "~/utils/form-action.server";
