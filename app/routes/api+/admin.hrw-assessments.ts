import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { listHrwAssessments } from "~/models/hrw/hrw-assessment.server";
import { hrwReportQuery } from "~/schemas/hrw";

/**
 * GET /api/admin/hrw-assessments?from=&to=: the regulator's audit as JSON, the same rows as
 * /admin/reports/hrw (administrators).
 */
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const period = parseInput(hrwReportQuery, queryObject(request));
    return apiJson({ assessments: await listHrwAssessments(getDb(), period) });
  },
});
export const loader = route;
export const action = route;
