import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { getOptionalApiUser, requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { reviewPage, takeReview } from "~/models/review.server";
import { reviewAnswersRequest } from "~/api/review-schemas";

/**
 * GET /api/courses/{id}/review → the questions of a course's pre-enrolment review and the
 * caller's latest attempt (anyone); POST → 201 with the attempt scored and kept (signed in; the
 * review page's model call).
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await getOptionalApiUser(request);
    const page = await reviewPage(getDb(), pathId(params, "Course"), { userId: user?.id ?? null, claimToken: null });
    return apiJson(page, { headers: { "Cache-Control": "private, no-store" } });
  },
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request);
    const courseId = pathId(params, "Course");
    const { answers } = parseInput(reviewAnswersRequest, await readJsonBody(request));
    const taken = await takeReview(getDb(), { courseId, taker: { userId: user.id, claimToken: null }, answers });
    return apiJson(taken, { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
