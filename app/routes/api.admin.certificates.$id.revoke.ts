import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { certificateResponse, certificateRevokeRequest, type CertificateResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { certificateSummaryOf, revokeCertificate } from "~/models/certificate.server";
import { type ApiOperation, err, FORBIDDEN, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";

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

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "post",
    path: "/api/admin/certificates/{id}/revoke",
    operationId: "revokeCertificate",
    summary: "Revoke a certificate",
    description: "Administrators. With a reason, kept with the record and never shown publicly. Nothing is deleted.",
    tags: ["admin"],
    access: "required",
    body: certificateRevokeRequest,
    bodyRequired: true,
    responses: {
      200: { description: "The revoked certificate", schema: certificateResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No certificate has this id"),
      409: err("Already revoked, or replaced by a reissued certificate"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
];
