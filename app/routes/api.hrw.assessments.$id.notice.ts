import { assessorStep } from "~/api/hrw-routes.server";
import { hrwNoticeRequest } from "~/api/hrw-schemas";
import { recordNotice } from "~/models/hrw-assessment.server";

/** POST /api/hrw/assessments/{id}/notice: the regulator's reference for the notice given. */
const route = assessorStep(hrwNoticeRequest, (db, id, input, actor) => recordNotice(db, id, input.notice_reference, actor));
export const loader = route;
export const action = route;
