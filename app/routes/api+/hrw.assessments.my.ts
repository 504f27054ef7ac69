import { apiJson, apiRoute } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { listHrwAssessments } from "~/models/hrw/hrw-assessment.server";

/** GET /api/hrw/assessments/my: the signed-in student's own HRW assessments, never anyone else's. */
const route = apiRoute({
  GET: async ({ request }) => {
    const student = await requireApiUser(request, "student");
    return apiJson({ assessments: await listHrwAssessments(getDb(), { candidateId: student.id, limit: 200 }) });
  },
});
export const loader = route;
export const action = route;
