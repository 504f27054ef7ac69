import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { creditNotePdfAnswer } from "~/route-helpers/pdf-response.server";

/**
 * A credit note against an invoice of the employer's own organisation, as PDF (the office's
 * document); another organisation's, a learner's, an unknown or a malformed id are the same 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  return creditNotePdfAnswer(params.id, { employerUserId: user.id });
}
