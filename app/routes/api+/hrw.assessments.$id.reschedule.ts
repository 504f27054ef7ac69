import { assessorStep } from "~/api/hrw-routes.server";
import { hrwRescheduleRequest } from "~/api/hrw-schemas";
import { rescheduleAssessment } from "~/models/hrw/hrw-assessment.server";

/** POST /api/hrw/assessments/{id}/reschedule: moves the booking, within the state's change and booking lead times. */
const route = assessorStep(hrwRescheduleRequest, rescheduleAssessment);
export const loader = route;
export const action = route;
