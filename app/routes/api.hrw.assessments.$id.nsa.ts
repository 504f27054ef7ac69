import { assessorStep, assessorStepOperation } from "~/api/hrw-routes.server";
import { hrwNsaRequest } from "~/api/hrw-schemas";
import type { ApiOperation } from "~/api/operation";
import { recordNsa } from "~/models/hrw-assessment.server";

/** POST /api/hrw/assessments/{id}/nsa: the Notice of Satisfactory Assessment, once all parts are satisfactory. */
const route = assessorStep(hrwNsaRequest, recordNsa);
export const loader = route;
export const action = route;

export const openapi: ApiOperation[] = [
  assessorStepOperation({
    path: "/api/hrw/assessments/{id}/nsa",
    operationId: "recordHrwNsa",
    summary: "Record the NSA",
    description: "The NSA number (unique) and date (not before the last part, not in the future). The candidate applies for the licence within 60 days.",
    body: hrwNsaRequest,
    conflict: "Not all three parts are satisfactory, the NSA is already recorded, or another assessment has this NSA number",
  }),
];
