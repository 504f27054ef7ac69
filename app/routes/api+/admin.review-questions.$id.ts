import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, pathId } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { retireReviewQuestion } from "~/models/review.server";

/** DELETE /api/admin/review-questions/{id} → 204: the question is retired, never deleted (administrators). */
const handle = apiRoute({
  DELETE: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    await retireReviewQuestion(getDb(), pathId(params, "Question"), { id: admin.id, client: clientAddress(request) });
    return new Response(null, { status: 204 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
