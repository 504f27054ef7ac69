/**
 * What student.overview.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { countCertificatesForStudent } from "~/models/certificates/certificate.server";
export { getStudentEnrollmentCounts, nextSessionForStudent } from "~/models/student-enrollments.server";
export { upcomingRecognitionSessions } from "~/models/recognition/recognition-session.server";
export { candidateHrwDeadlines } from "~/models/hrw/hrw-dashboard.server";
export { waitlistForStudent } from "~/models/waitlist.server";
