import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { assessmentRequest, assessmentResponse, type AssessmentResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { getAssessment, recordAssessment } from "~/models/assessment.server";
import { type ApiOperation, err, FORBIDDEN, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";

/**
 * POST /api/assessments → 201 with the recorded assessment. Trainers and administrators; the
 * trainer's Record Assessment form's schema and model (recordAssessment), so the rules are the
 * same: a current enrolment of an active student, a score within the max score, feedback for a
 * fail, a date neither in the future nor before the enrolment.
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const input = parseInput(assessmentRequest, await readJsonBody(request));
    const db = getDb();
    const { id } = await recordAssessment(db, { ...input, actorId: user.id });
    return apiJson<AssessmentResponse>((await getAssessment(db, id))!, { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "post",
    path: "/api/assessments",
    operationId: "recordAssessment",
    summary: "Record an assessment",
    description:
      "Trainers and administrators. For a current (enrolled or in progress) enrolment of an active student. Passed and failed need a score and max score; failed and resubmission need feedback; the date (YYYY-MM-DD) is not in the future nor before the enrolment.",
    tags: ["trainer"],
    access: "required",
    body: assessmentRequest,
    bodyRequired: true,
    responses: {
      201: { description: "Recorded", schema: assessmentResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No enrolment has this id"),
      409: err("The enrolment is not current, or the student's account is inactive"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
];
