import { assessorStep } from "~/api/hrw-routes.server";
import { hrwPartResultRequest } from "~/api/hrw-schemas";
import { recordPartResult } from "~/models/hrw/hrw-assessment.server";

/** POST /api/hrw/assessments/{id}/results: one NAI part's result (a reassessment adds another). */
const route = assessorStep(hrwPartResultRequest, recordPartResult);
export const loader = route;
export const action = route;
