/**
 * What courses_.$id_.review.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { getOptionalUser } from "~/auth/guards.server";
export { ensureReviewClaimToken, reviewClaimToken } from "~/auth/session.server";
export { getDb } from "~/db.server";
export { organisation } from "~/env.server";
export { enrollmentState } from "~/models/enrollment.server";
export { reviewPage, retakeWaitMessage, takeReview } from "~/models/review.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
