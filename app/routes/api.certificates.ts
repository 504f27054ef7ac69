import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { apiError } from "~/utils/http.server";
import { certificateIssueRequest, certificateResponse, type CertificateResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { announceCertificate } from "~/mail/certificate-issued.server";
import { issueCertificate, certificateSummaryOf } from "~/models/certificate.server";
import { type ApiOperation, err, FORBIDDEN, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";

/**
 * POST /api/certificates `{enrollment_id}` → 201 with the certificate, its verification code
 * included. Trainers and administrators; the model of the trainer's Issue Certificate button
 * (issueCertificate): once per enrolment (a second call is a 409 naming the number issued), only
 * for a completed enrolment (422) of a student whose USI is verified (409 "USI not verified").
 * The student is mailed the verification link.
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const { enrollment_id } = parseInput(certificateIssueRequest, await readJsonBody(request));
    const db = getDb();
    const { certificate, created } = await issueCertificate(db, { enrollmentId: enrollment_id, actorId: user.id, client: clientAddress(request) });
    if (!created) throw apiError(409, `Certificate ${certificate.certificate_number} was already issued for this enrollment`);
    void announceCertificate(db, request, certificate.id);
    return apiJson<CertificateResponse>(certificateSummaryOf(certificate), { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "post",
    path: "/api/certificates",
    operationId: "issueCertificate",
    summary: "Issue the certificate of a completed enrolment",
    description:
      "Trainers and administrators. Once per enrolment, for a completed enrolment of a student whose USI is verified (or a recorded exemption). The student is emailed the verification link.",
    tags: ["trainer"],
    access: "required",
    body: certificateIssueRequest,
    bodyRequired: true,
    responses: {
      201: { description: "Issued", schema: certificateResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No enrolment has this id"),
      409: err("USI not verified, or a certificate was already issued for this enrolment"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: err("Invalid fields, or the enrolment is not completed"),
    },
  },
];
