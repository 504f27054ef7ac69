/**
 * What enroll.$courseId.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { HOME_BY_ROLE, requireUser } from "~/auth/guards.server";
export { reviewClaimToken } from "~/auth/session.server";
export { reviewBeforeEnrollment } from "~/models/review.server";
export { getDb } from "~/db.server";
export { organisation } from "~/env.server";
export { courseOverview, getCourse } from "~/models/course.server";
export { createEnrollment, enrollmentState } from "~/models/enrollment.server";
export { listUpcomingClasses } from "~/models/class.server";
export { acceptOffer, joinWaitlist, leaveWaitlist, waitlistForStudent } from "~/models/waitlist.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { logLine } from "~/utils/log.server";
export { answerForm } from "~/utils/form-action.server";
export { clientAddress } from "~/http/request-context.server";
export { formIntent } from "~/utils/form-intent.server";
