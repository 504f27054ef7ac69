/**
 * What login_.two-step.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data, redirect } from "@remix-run/node";
export { HOME_BY_ROLE, requireAnonymous } from "~/auth/guards.server";
export { clearSecondStep, pendingSecondStep } from "~/auth/session.server";
export { completeSecondStep, STEP_EXPIRED, STEP_USED } from "~/auth/sign-in.server";
export { getDb } from "~/db.server";
export { clientAddress } from "~/http/request-context.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
export { retryAfterFromAction } from "~/utils/http.server";
