import type { z } from "zod";
import { hrwAssessmentListResponse, hrwAssessmentResponse, hrwBookingRequest, hrwNoticeRequest, hrwNsaRequest, hrwPartResultRequest } from "../hrw-schemas";
import { type ApiOperation, BODY_FAILURES, err, FORBIDDEN, INVALID, UNAUTHENTICATED } from "../operation";
import { hrwReportQuery } from "~/schemas/hrw";

/** How the OpenAPI document describes the hrw calls. */
export const hrwOperations: ApiOperation[] = [
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
  {
    method: "post",
    path: "/api/hrw/assessments",
    operationId: "bookHrwAssessment",
    summary: "Book an HRW licence assessment",
    description:
      "Trainers. Candidate, licence course, state, date (not in the past), start time, delivery location, assessor and plant. The regulator notice deadline comes from the state's lead time in business days.",
    tags: ["trainer"],
    access: "required",
    body: hrwBookingRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "Booked", schema: hrwAssessmentResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No course or location has this id"),
      409: err("The candidate's checks are incomplete (the detail names which), the course has no licence class, or the assessor or candidate is not active"),
    },
  },
  assessorStepOperation({
    path: "/api/hrw/assessments/{id}/notice",
    operationId: "recordHrwNotice",
    summary: "Record the regulator notice",
    description: "The reference the regulator gave for the notice of this assessment; results can be recorded once it is in.",
    body: hrwNoticeRequest,
  }),
  assessorStepOperation({
    path: "/api/hrw/assessments/{id}/results",
    operationId: "recordHrwPartResult",
    summary: "Record an NAI part result",
    description: "knowledge, calculations or practical; satisfactory or not_yet_satisfactory; the date assessed (not before the booking, not in the future). The latest result of a part counts; every one is kept.",
    body: hrwPartResultRequest,
    conflict: 'The accreditation does not cover the class on that date ("Your accreditation does not cover CN on 12 Dec 2026"), the regulator notice is missing, or the NSA is already issued',
  }),
  assessorStepOperation({
    path: "/api/hrw/assessments/{id}/nsa",
    operationId: "recordHrwNsa",
    summary: "Record the NSA",
    description: "The NSA number (unique) and date (not before the last part, not in the future). The candidate applies for the licence within 60 days.",
    body: hrwNsaRequest,
    conflict: "Not all three parts are satisfactory, the NSA is already recorded, or another assessment has this NSA number",
  }),
  {
    method: "get",
    path: "/api/hrw/assessments/my",
    operationId: "myHrwAssessments",
    summary: "My HRW licence assessments",
    description: "Students. Their own high-risk work assessments with results, NSA and the licence application deadline (NSA date + 60 days).",
    tags: ["student"],
    access: "required",
    responses: { 200: { description: "The student's own assessments", schema: hrwAssessmentListResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
];

/** The OpenAPI entry of an assessor's step. */
function assessorStepOperation(step: {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  body: z.ZodType;
  conflict?: string;
}): ApiOperation {
  return {
    method: "post",
    path: step.path,
    operationId: step.operationId,
    summary: step.summary,
    description: `Trainers, as the assessor booked for the assessment (anyone else: 403). ${step.description}`,
    tags: ["trainer"],
    access: "required",
    body: step.body,
    bodyRequired: true,
    responses: assessorStepResponses(step.conflict),
  };
}

function assessorStepResponses(conflict: string | undefined): ApiOperation["responses"] {
  const responses: ApiOperation["responses"] = {
    201: {
      description: "The assessment as it now stands",
      schema: hrwAssessmentResponse,
    },
    ...BODY_FAILURES,
    401: UNAUTHENTICATED,
    403: FORBIDDEN,
    404: err("No assessment has this id"),
  };
  if (conflict) responses[409] = err(conflict);
  return responses;
}
