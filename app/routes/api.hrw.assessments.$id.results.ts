import { assessorStep, assessorStepOperation } from "~/api/hrw-routes.server";
import { hrwPartResultRequest } from "~/api/hrw-schemas";
import type { ApiOperation } from "~/api/operation";
import { recordPartResult } from "~/models/hrw-assessment.server";

/** POST /api/hrw/assessments/{id}/results: one NAI part's result (a reassessment adds another). */
const route = assessorStep(hrwPartResultRequest, recordPartResult);
export const loader = route;
export const action = route;

export const openapi: ApiOperation[] = [
  assessorStepOperation({
    path: "/api/hrw/assessments/{id}/results",
    operationId: "recordHrwPartResult",
    summary: "Record an NAI part result",
    description: "knowledge, calculations or practical; satisfactory or not_yet_satisfactory; the date assessed (not before the booking, not in the future). The latest result of a part counts; every one is kept.",
    body: hrwPartResultRequest,
    conflict: 'The accreditation does not cover the class on that date ("Your accreditation does not cover CN on 12 Dec 2026"), the regulator notice is missing, or the NSA is already issued',
  }),
];
