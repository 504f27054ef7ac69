import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, pathId, readJsonBody } from "~/api/http.server";
import { certificateResponse, type CertificateResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { announceCertificate } from "~/mail/certificate-issued.server";
import { certificateSummaryOf, reissueCertificate } from "~/models/certificate.server";
import { apiError } from "~/utils/http.server";
import { type ApiOperation, err, FORBIDDEN, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";

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
    if (Object.keys(body).length) throw apiError(422, "A reissue takes no fields", { errors: Object.fromEntries(Object.keys(body).map((k) => [k, "Unknown field"])) });
    const db = getDb();
    const replacement = await reissueCertificate(db, { certificateId: id, actorId: admin.id, client: clientAddress(request) });
    void announceCertificate(db, request, replacement.id);
    return apiJson<CertificateResponse>(certificateSummaryOf(replacement), { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "post",
    path: "/api/admin/certificates/{id}/reissue",
    operationId: "reissueCertificate",
    summary: "Reissue a certificate",
    description:
      "Administrators. A new certificate with a new number and verification code for the same enrolment; the old one is kept and verifies as replaced. No body (or an empty JSON object).",
    tags: ["admin"],
    access: "required",
    responses: {
      201: { description: "The new certificate", schema: certificateResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No certificate has this id"),
      409: err("Revoked or already replaced, or the student's USI is not verified"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: err("The body has fields; a reissue takes none"),
    },
  },
];
