import { assessorStep, assessorStepOperation } from "~/api/hrw-routes.server";
import { hrwNoticeRequest } from "~/api/hrw-schemas";
import type { ApiOperation } from "~/api/operation";
import { recordNotice } from "~/models/hrw-assessment.server";

/** POST /api/hrw/assessments/{id}/notice: the regulator's reference for the notice given. */
const route = assessorStep(hrwNoticeRequest, (db, id, input, actorId) => recordNotice(db, id, input.notice_reference, actorId));
export const loader = route;
export const action = route;

export const openapi: ApiOperation[] = [
  assessorStepOperation({
    path: "/api/hrw/assessments/{id}/notice",
    operationId: "recordHrwNotice",
    summary: "Record the regulator notice",
    description: "The reference the regulator gave for the notice of this assessment; results can be recorded once it is in.",
    body: hrwNoticeRequest,
  }),
];
