import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { enrollmentReviewFor } from "~/models/personal-data.server";
import { getEnrollmentReview } from "~/models/review.server";
import { notFound } from "~/utils/errors";

/** GET /api/enrollments/{id}/review → the enrolment's review as the caller may read it: the learner their own, trainers and admins any (personal-data.server.ts). */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request);
    const review = await getEnrollmentReview(getDb(), pathId(params, "Enrolment"));
    // another learner's enrolment is not found, as an unknown one
    if (!review || (user.role === "student" && review.student_id !== user.id)) throw notFound("Enrolment");
    return apiJson(enrollmentReviewFor(user, review), { headers: { "Cache-Control": "no-store" } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
