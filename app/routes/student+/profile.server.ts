/**
 * What student.profile.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { ownRecord } from "~/models/personal-data.server";
export { learnerDocumentUrl, listLearnerDocuments } from "~/models/learner-document.server";
export { getDb } from "~/db.server";
export { getAvetmissDetails } from "~/models/avetmiss-details.server";
// the labelled lines are made in the loader, so their code lists stay out of the page's scripts
export { enrollmentDetailRows } from "~/avetmiss/enrollment-detail-rows";
