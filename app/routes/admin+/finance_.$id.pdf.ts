import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { invoicePdfAnswer } from "~/route-helpers/pdf-response.server";

/** An invoice's PDF (administrators). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return invoicePdfAnswer(params.id, { learnerId: null });
}
