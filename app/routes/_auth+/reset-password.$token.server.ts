/**
 * What reset-password.$token.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data } from "@remix-run/node";
export { destroySession } from "~/auth/session.server";
export { getDb } from "~/db.server";
export { clientAddress } from "~/http/request-context.server";
export { inspectResetToken, resetPassword, RESET_TOKEN_TTL_MINUTES, type ResetTokenProblem } from "~/models/password-reset.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
