import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { creditNotePdfAnswer } from "~/route-helpers/pdf-response.server";

/**
 * A credit note against the learner's own invoice (one they paid themselves), as PDF (the
 * office's document); anyone else's, an unknown or a malformed id are the same 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  return creditNotePdfAnswer(params.id, { learnerId: user.id });
}
