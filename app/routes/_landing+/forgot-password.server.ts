/**
 * What _landing.forgot-password.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireAnonymous } from "~/auth/guards.server";
export { clientAddress } from "~/http/request-context.server";
export { getDb } from "~/db.server";
export { deliverNow } from "~/jobs/runner.server";
export { passwordResetLink } from "~/utils/public-link.server";
export { requestPasswordReset, TOO_MANY_RESET_REQUESTS } from "~/models/password-reset.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { retryAfterFromAction } from "~/utils/http.server";
export { logLine } from "~/utils/log.server";
export { answerForm } from "~/utils/form-action.server";
