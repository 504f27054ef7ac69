import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { invoicePdfAnswer } from "~/route-helpers/pdf-response.server";

/** The learner's own invoice as PDF; anyone else's is not found. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  return invoicePdfAnswer(params.id, { learnerId: user.id });
}
