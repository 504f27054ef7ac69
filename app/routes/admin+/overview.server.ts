/**
 * What admin.overview.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { approveAccount, listPendingAccounts, rejectAccount } from "~/models/approval.server";
export { countAllCourses } from "~/models/course-admin.server";
export { countCompletedAwaitingCertificate, listCompletedAwaitingCertificate } from "~/models/certificates/certificate-due.server";
export { getDashboardStats } from "~/models/stats.server";
export { listAttendanceAlerts } from "~/models/attendance.server";
export { listRecentStudents } from "~/models/student.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
export { clientAddress } from "~/http/request-context.server";
export { adminHrwAlerts } from "~/models/hrw/hrw-dashboard.server";
export { overdueImprovementCount, overdueImprovements } from "~/models/standards/improvement.server";
export { standardsPanel } from "~/models/standards/standards-panel.server";
