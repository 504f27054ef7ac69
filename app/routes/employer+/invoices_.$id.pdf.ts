import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { invoicePdfAnswer } from "~/route-helpers/pdf-response.server";

/** An invoice of the employer's own organisation as PDF; another organisation's, or a learner's, is not found. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  return invoicePdfAnswer(params.id, { employerUserId: user.id });
}
