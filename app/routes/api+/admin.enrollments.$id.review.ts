import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { reviewOverrideRequest } from "~/api/review-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { overrideReview } from "~/models/review.server";

/** POST /api/admin/enrollments/{id}/review `{outcome, reason}` → the review as it now stands (administrators; audited). */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const enrollmentId = pathId(params, "Enrolment");
    const change = parseInput(reviewOverrideRequest, await readJsonBody(request));
    return apiJson(await overrideReview(getDb(), { enrollmentId, change, actor: { id: admin.id, client: clientAddress(request) } }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
