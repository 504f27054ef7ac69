import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, apiRoute } from "~/api/http.server";
import { type CertificateVerificationResponse } from "~/api/schemas";
import { clientAddress } from "~/http/request-context.server";
import { getDb } from "~/db.server";
import { env } from "~/env.server";
import { lookUpVerification, NO_CERTIFICATE, VERIFY_LIMITED } from "~/models/certificates/certificate-verification.server";

/**
 * GET /api/verify/{code} → the certificate's public record and status, for anyone (no
 * sign-in): never a USI or date of birth. 404 "No certificate found" for an unknown or
 * malformed code alike; 429 past the per-client limit.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const outcome = await lookUpVerification(getDb(), { code: params.code ?? "", client: clientAddress(request) });
    if (outcome.kind === "limited") {
      const refused = apiError(429, VERIFY_LIMITED);
      refused.headers.set("Retry-After", String(outcome.retryAfterSeconds));
      return refused;
    }
    if (outcome.kind === "not-found") return apiError(404, NO_CERTIFICATE);
    const v = outcome.verification;
    return apiJson<CertificateVerificationResponse>({
      certificate_number: v.certificate_number,
      learner_name: v.learner_name,
      unit_code: v.unit_code,
      unit_title: v.unit_title,
      issue_date: v.issue_date,
      status: v.status,
      revoked_at: v.revoked_at,
      replaced_by: v.replaced_by,
      rto_name: env().RTO_NAME,
      rto_code: env().RTO_CODE,
    });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
