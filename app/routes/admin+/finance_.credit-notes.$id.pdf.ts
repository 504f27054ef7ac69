import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { creditNotePdfAnswer } from "~/route-helpers/pdf-response.server";

/** A credit note's PDF (administrators). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return creditNotePdfAnswer(params.id, { learnerId: null });
}
