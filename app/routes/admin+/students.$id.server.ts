/**
 * What admin.students.$id.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { foundOr404 } from "~/route-helpers/page-records.server";
export { requireRole } from "~/auth/guards.server";
export { isMultipart } from "~/files/upload.server";
export { addLearnerDocument } from "~/models/learner-document.server";
export { answerUploadForm } from "~/route-helpers/upload-form.server";
export { getDb } from "~/db.server";
export { prepareCertificatePdf } from "~/pdf/certificate-pdf.server";
export { getCertificateForViewer, listCertificateHistory, type CertificateHistoryEntry } from "~/models/certificates/certificate.server";
export { reissueCertificate, revokeCertificate } from "~/models/certificates/certificate-issue.server";
export { getStudentDetail } from "~/models/student.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { answerForm } from "~/utils/form-action.server";
export { clientAddress } from "~/http/request-context.server";
