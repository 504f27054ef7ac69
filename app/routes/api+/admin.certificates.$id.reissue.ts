import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiError, apiJson, apiRoute, pathId, readJsonBody } from "~/api/http.server";
import { type CertificateResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { prepareCertificatePdf } from "~/pdf/certificate-pdf.server";
import { certificateSummaryOf } from "~/models/certificates/certificate.server";
import { reissueCertificate } from "~/models/certificates/certificate-issue.server";

/**
 * POST /api/admin/certificates/{id}/reissue → 201 with the new certificate. Administrators; the
 * model of the Reissue button on the student's profile (reissueCertificate): a new number and
 * verification code, the old certificate kept and verifying as "replaced". The student is mailed.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Certificate");
    const body = await readJsonBody(request, { optional: true });
    if (Object.keys(body).length)
      throw apiError(422, "A reissue takes no fields", { errors: Object.fromEntries(Object.keys(body).map((k) => [k, "Unknown field"])) });
    const db = getDb();
    const replacement = await reissueCertificate(db, { certificateId: id, actorId: admin.id, client: clientAddress(request) });
    void prepareCertificatePdf(db, replacement.id);
    return apiJson<CertificateResponse>(certificateSummaryOf(replacement), { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
