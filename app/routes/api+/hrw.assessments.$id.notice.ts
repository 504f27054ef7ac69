import { assessorStep } from "~/api/hrw-routes.server";
import { hrwNoticeRequest } from "~/api/hrw-schemas";
import { recordNotice } from "~/models/hrw/hrw-assessment.server";

/** POST /api/hrw/assessments/{id}/notice: the regulator's reference for a notice given (for the booked day unless held_on names another day of the assessment; given today unless sent_on says). */
const route = assessorStep(hrwNoticeRequest, (db, id, input, actor) => recordNotice(db, id, input, actor));
export const loader = route;
export const action = route;
