/**
 * What login.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { authenticator, LoginFailure } from "~/auth/authenticator.server";
export { HOME_BY_ROLE, requireAnonymous } from "~/auth/guards.server";
export { createSession, startSecondStep } from "~/auth/session.server";
export { redirect } from "@remix-run/node";
export { getDb } from "~/db.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { formFailure } from "~/utils/form-action.server";
export { retryAfterFromAction } from "~/utils/http.server";
export { logLine } from "~/utils/log.server";
export { providerSettings } from "~/auth/single-sign-on.server";
