import { assessorStep } from "~/api/hrw-routes.server";
import { hrwNsaRequest } from "~/api/hrw-schemas";
import { recordNsa } from "~/models/hrw/hrw-assessment.server";

/** POST /api/hrw/assessments/{id}/nsa: the Notice of Satisfactory Assessment, once all parts are satisfactory. */
const route = assessorStep(hrwNsaRequest, recordNsa);
export const loader = route;
export const action = route;
