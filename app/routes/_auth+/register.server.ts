/**
 * What register.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireAnonymous } from "~/auth/guards.server";
export { clientAddress } from "~/http/request-context.server";
export { getDb } from "~/db.server";
export { registeredMessage, registerUser } from "~/models/user.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { retryAfterFromAction } from "~/utils/http.server";
