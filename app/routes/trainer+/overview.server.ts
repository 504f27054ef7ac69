/**
 * What trainer.overview.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { listPendingAssessments } from "~/models/assessment.server";
export { listCompletedAwaitingCertificate } from "~/models/certificates/certificate-due.server";
export { listTrainerStudents } from "~/models/trainer-students.server";
export { getTrainerStats } from "~/models/stats.server";
export { trainerHrwAlerts } from "~/models/hrw/hrw-dashboard.server";
