import { apiJson, apiRoute } from "~/api/http.server";
import { hrwAssessmentListResponse } from "~/api/hrw-schemas";
import { type ApiOperation, FORBIDDEN, UNAUTHENTICATED } from "~/api/operation";
import { requireApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
import { listHrwAssessments } from "~/models/hrw-assessment.server";

/** GET /api/hrw/assessments/my: the signed-in student's own HRW assessments, never anyone else's. */
const route = apiRoute({
  GET: async ({ request }) => {
    const student = await requireApiUser(request, "student");
    return apiJson({ assessments: await listHrwAssessments(getDb(), { candidateId: student.id, limit: 200 }) });
  },
});
export const loader = route;
export const action = route;

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/hrw/assessments/my",
    operationId: "myHrwAssessments",
    summary: "My HRW licence assessments",
    description: "Students. Their own high-risk work assessments with results, NSA and the licence application deadline (NSA date + 60 days).",
    tags: ["student"],
    access: "required",
    responses: { 200: { description: "The student's own assessments", schema: hrwAssessmentListResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
];
