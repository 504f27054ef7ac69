import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { listHrwAssessments } from "~/models/hrw/hrw-assessment.server";
import { hrwAssessmentsQuery } from "~/schemas/hrw";

/**
 * GET /api/admin/hrw-assessments?from=&to=&state=: the regulator's audit as JSON, the same rows
 * as /admin/reports/hrw (administrators), of one state when asked.
 */
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const query = parseInput(hrwAssessmentsQuery, queryObject(request));
    return apiJson({ assessments: await listHrwAssessments(getDb(), query) });
  },
});
export const loader = route;
export const action = route;
