import type { z } from "zod";
import {
  hrwAenListResponse,
  hrwAenRequest,
  hrwAssessmentListResponse,
  hrwAssessmentResponse,
  hrwBookingRequest,
  hrwCurrencyResponse,
  hrwNoticeRequest,
  hrwNsaRequest,
  hrwPartResultRequest,
  hrwRescheduleRequest,
  hrwRulesResponse,
} from "../hrw-schemas";
import { type ApiOperation, BODY_FAILURES, err, FORBIDDEN, INVALID, UNAUTHENTICATED } from "../operation";
import { hrwAssessmentsQuery } from "~/schemas/hrw";

/** How the OpenAPI document describes the hrw calls. */
export const hrwOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/hrw-assessments",
    operationId: "listHrwAssessments",
    summary: "HRW assessment audit",
    description:
      "Administrators. Every high-risk work licence assessment with its assessment date in the period (both ends optional; the end not before the start), of one state or territory's regulator when `state` names one: candidate, class, date, location, plant, assessor and accreditation number, the NAI parts (latest and every result) and the NSA. At most 2000, oldest first. 422 names the field: a date that does not read, `to` before `from`, or a state that is not a code.",
    tags: ["admin"],
    access: "required",
    query: hrwAssessmentsQuery,
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
      "Trainers. Candidate, licence course, state (default: the delivery location's), date (not in the past, and not inside the state's booking lead time), start time, delivery location, assessor, plant and hours. The regulator notice deadline comes from the state's rules on the assessment date.",
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
    summary: "Record a regulator notice",
    description:
      "The reference the regulator gave for a notice of this assessment, for one assessment day (held_on, default the booked day) and the day it was given (sent_on, default today). Where the state's rules ask for a notice for each part held on a non-consecutive day, each such day and each reassessment needs its own. A notice given after the state's deadline for its day is refused (409).",
    body: hrwNoticeRequest,
    conflict: "The notice was given after the state's deadline for that day, a notice for that day is already recorded, or the NSA is issued",
  }),
  assessorStepOperation({
    path: "/api/hrw/assessments/{id}/reschedule",
    operationId: "rescheduleHrwAssessment",
    summary: "Move an HRW assessment",
    description:
      "A new date and start time, before any result. The state's rules may ask for changes a number of hours ahead of the start (NSW 48, a secondary source) and bookings a number of days ahead (NSW 7).",
    body: hrwRescheduleRequest,
    conflict: "Too close to the start for the state's change lead time, or results are already recorded",
  }),
  {
    method: "post",
    path: "/api/hrw/candidates/{id}/aen",
    operationId: "recordHrwAen",
    summary: "Record a candidate's assessment enrolment number",
    description:
      "Trainers. The AEN the regulator gave the candidate (NSW: from Service NSW), for a state whose rules ask for one, in that state's format. Results for that state's assessments are refused (409) until it is recorded.",
    tags: ["trainer"],
    access: "required",
    body: hrwAenRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "The candidate's AENs, the latest per state", schema: hrwAenListResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No active student has this id"),
    },
  },
  {
    method: "get",
    path: "/api/hrw/currency",
    operationId: "myHrwCurrency",
    summary: "My assessor currency",
    description:
      "Trainers. Per state and class they are accredited for where the state's rules set a currency (QLD: 9 assessments or 35 hours per class in 3 years): the assessments with a result and the hours booked in the window, from the portal's records, and the day currency would lapse.",
    tags: ["trainer"],
    access: "required",
    responses: { 200: { description: "The assessor's currency", schema: hrwCurrencyResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
  {
    method: "get",
    path: "/api/admin/hrw/rules",
    operationId: "listHrwRules",
    summary: "High-risk work rules by state",
    description:
      "Administrators. Each state's rules with their sources (secondary ones marked): the value in force today, values coming into force later and earlier values with the reasons they changed.",
    tags: ["admin"],
    access: "required",
    responses: { 200: { description: "The rules", schema: hrwRulesResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
  assessorStepOperation({
    path: "/api/hrw/assessments/{id}/results",
    operationId: "recordHrwPartResult",
    summary: "Record an NAI part result",
    description:
      "knowledge, calculations or practical; satisfactory or not_yet_satisfactory; the date assessed (not before the booking, not in the future). The latest result of a part counts; every one is kept.",
    body: hrwPartResultRequest,
    conflict:
      'The accreditation does not cover the class on that date ("Your accreditation does not cover CN on 12 Dec 2026"), the regulator notice for that day is missing, the candidate\'s AEN is missing where the state asks for one, the NSA is already issued, or the assessor is not credentialed for the unit on the day assessed',
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
