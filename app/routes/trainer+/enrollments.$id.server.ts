/**
 * What trainer.enrollments.$id.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { listAssessments } from "~/models/assessment.server";
export { getEnrollmentForTrainer } from "~/models/trainer-students.server";
export { updateEnrollmentProgress } from "~/models/enrollment.server";
export { prepareCertificatePdf } from "~/pdf/certificate-pdf.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { foundOr404 } from "~/route-helpers/page-records.server";
