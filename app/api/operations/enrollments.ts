import { type ApiOperation, BODY_FAILURES, err, FORBIDDEN, UNAUTHENTICATED } from "../operation";
import { assessmentRequest, assessmentResponse, enrollmentRequest, enrollmentResponse, enrollmentUpdateRequest, trainerEnrollmentResponse } from "../schemas";

/** How the OpenAPI document describes the enrollments calls. */
export const enrollmentsOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/enrollments/my",
    operationId: "listMyEnrollments",
    summary: "My enrolments",
    description: "Any signed-in user; only their own enrolments, newest first.",
    tags: ["student"],
    access: "required",
    responses: { 200: { description: "The enrolments", schema: enrollmentResponse, array: true }, 401: UNAUTHENTICATED },
  },
  {
    method: "post",
    path: "/api/enrollments",
    operationId: "enrol",
    summary: "Enrol in a course",
    description:
      "Any signed-in user enrols themselves in an active course. One enrolment per course. A course with upcoming classes takes a seat in one: `class_id` chooses it; without it, the next upcoming class with a free seat. A learner whose class was cancelled is still enrolled with no class: this call gives that same enrolment a seat in the class chosen (201, the enrolment as it stands).",
    tags: ["student"],
    access: "required",
    body: enrollmentRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "Enrolled", schema: enrollmentResponse },
      401: UNAUTHENTICATED,
      404: err("No active course has this id"),
      409: err('Already enrolled in this course; "This class is full" for a chosen class without a free seat; or every class of the course is full'),
    },
  },
  {
    method: "put",
    path: "/api/enrollments/{id}",
    operationId: "updateEnrollment",
    summary: "Update an enrolment's status, progress and planned dates",
    description:
      "Trainers and administrators. Fields left out keep their values. planned_start_date and planned_end_date (YYYY-MM-DD, sent together, the end not before the start) are the activity dates the AVETMISS report carries. Completing needs a passed assessment and sets progress to 100; it issues the certificate when the student's USI is verified. A withdrawn enrolment is reinstated only with reopen: true.",
    tags: ["trainer"],
    access: "required",
    body: enrollmentUpdateRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: { description: "The enrolment as it now stands", schema: trainerEnrollmentResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No enrolment has this id"),
      409: err("The change is not allowed from the enrolment's current state"),
    },
  },
  {
    method: "post",
    path: "/api/assessments",
    operationId: "recordAssessment",
    summary: "Record an assessment",
    description:
      "Trainers and administrators. For a current (enrolled or in progress) enrolment of an active student. Passed and failed need a score and max score; failed and resubmission need feedback; the date (YYYY-MM-DD, the organisation's calendar) is not in the future nor before the training began (the enrolment's planned start, or its class's first session if earlier).",
    tags: ["trainer"],
    access: "required",
    body: assessmentRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "Recorded", schema: assessmentResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No enrolment has this id"),
      409: err(
        "The enrolment is not current, the student's account is inactive, or the caller is not credentialed for the unit on the day assessed (the detail says why)",
      ),
    },
  },
];
