/**
 * What admin.mail.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data } from "@remix-run/node";
export { queryObject } from "~/api/http.server";
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { clientAddress } from "~/http/request-context.server";
export { deliverNow } from "~/jobs/runner.server";
export { mailView } from "~/mail/templates.server";
export { listMail, MAIL_PAGE_SIZE, resendMail, resendRefusal } from "~/models/outbox.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
