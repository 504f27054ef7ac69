/**
 * What admin.enrollments.$id.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getEnrollmentReview, overrideReview } from "~/models/review.server";
export { enrollmentReviewFor } from "~/models/personal-data.server";
export { clientAddress } from "~/http/request-context.server";
export { getDb } from "~/db.server";
export { PLANNED_DATES_UPDATED, setPlannedDates } from "~/models/enrollment.server";
export { getEnrollmentForTrainer } from "~/models/trainer-students.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { foundOr404 } from "~/route-helpers/page-records.server";
export { formIntent } from "~/utils/form-intent.server";
