/**
 * What trainer.certificates.tsx uses of the server's modules, imported through this one: the browser build
 * swaps it for an empty module inside the route's own script (decision 043).
 */
export { requireRole } from "~/auth/guards.server";
export { getDb } from "~/db.server";
export { listRecentCertificates } from "~/models/certificates/certificate.server";
export { countCompletedAwaitingCertificate, listCompletedAwaitingCertificate } from "~/models/certificates/certificate-due.server";
export { issueCertificate } from "~/models/certificates/certificate-issue.server";
export { prepareCertificatePdf } from "~/pdf/certificate-pdf.server";
export { answerForm } from "~/utils/form-action.server";
export { redirectWithFlash } from "~/utils/flash.server";
export { clientAddress } from "~/http/request-context.server";
