import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { certificateRevokeRequest, type CertificateResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { certificateSummaryOf } from "~/models/certificates/certificate.server";
import { revokeCertificate } from "~/models/certificates/certificate-issue.server";

/**
 * POST /api/admin/certificates/{id}/revoke `{reason}` → 200 with the revoked certificate.
 * Administrators; the model of the Revoke button on the student's profile (revokeCertificate):
 * the record stays, verification answers "revoked" with the date, the reason stays private.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Certificate");
    const { reason } = parseInput(certificateRevokeRequest, await readJsonBody(request));
    const revoked = await revokeCertificate(getDb(), { certificateId: id, reason, actorId: admin.id, client: clientAddress(request) });
    return apiJson<CertificateResponse>(certificateSummaryOf(revoked));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
