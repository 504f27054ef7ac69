import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import { hrwAssessmentListResponse } from "~/api/hrw-schemas";
import { type ApiOperation, FORBIDDEN, INVALID, UNAUTHENTICATED } from "~/api/operation";
import { requireApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
import { listHrwAssessments } from "~/models/hrw-assessment.server";
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

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/hrw-assessments",
    operationId: "listHrwAssessments",
    summary: "HRW assessment audit",
    description:
      "Administrators. Every high-risk work licence assessment with its assessment date in the period (both ends optional): candidate, class, date, location, plant, assessor and accreditation number, the NAI parts (latest and every result) and the NSA. At most 2000, oldest first.",
    tags: ["admin"],
    access: "required",
    query: hrwReportQuery,
    responses: {
      200: { description: "The assessments", schema: hrwAssessmentListResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      422: INVALID,
    },
  },
];
