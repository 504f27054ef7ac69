/**
 * What admin.retention.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { getFileStore } from "~/files/store.server";
export { clientAddress } from "~/http/request-context.server";
export { destroyRecords, listDueForDestruction, listRetentionRules, listTombstones, setRetentionRule } from "~/models/retention.server";
export { answerForm, formFailure } from "~/utils/form-action.server";
export { formIntent } from "~/utils/form-intent.server";
export { redirectWithFlash } from "~/utils/flash.server";
