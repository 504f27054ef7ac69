import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiError, apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { certificateIssueRequest, type CertificateResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { prepareCertificatePdf } from "~/pdf/certificate-pdf.server";
import { certificateSummaryOf } from "~/models/certificates/certificate.server";
import { issueCertificate } from "~/models/certificates/certificate-issue.server";

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
    if (!created) throw apiError(409, `Certificate ${certificate.certificate_number} was already issued for this enrolment`);
    void prepareCertificatePdf(db, certificate.id);
    return apiJson<CertificateResponse>(certificateSummaryOf(certificate), { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
