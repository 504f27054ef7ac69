/**
 * What account.security.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { data } from "@remix-run/node";
export { HOME_BY_ROLE, requireSignedIn } from "~/auth/guards.server";
export { changeOwnPassword, finishTwoStepSetUp, startTwoStepSetUp, turnOffTwoStep } from "~/auth/factor-change.server";
export { currentSessionKey } from "~/auth/session.server";
export { needsTwoStepSetUp, twoStepSetUp } from "~/auth/two-step.server";
export { getDb } from "~/db.server";
export { demoMode } from "~/http/demo-lock.server";
export { clientAddress } from "~/http/request-context.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm, formFailure } from "~/utils/form-action.server";
export { formIntent } from "~/utils/form-intent.server";
export { retryAfterFromAction } from "~/utils/http.server";
