import { credentialMatrixResponse, validationPlanRequest, validationPlanResponse } from "../standards-schemas";
import { type ApiOperation, BODY_FAILURES, err, FORBIDDEN, UNAUTHENTICATED } from "../operation";

/** How the OpenAPI document describes trainer credentials and course validation. */
export const standardsOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/credential-matrix",
    operationId: "credentialMatrix",
    summary: "Courses by trainers: held, expiring or missing",
    description: "Administrators. Active courses (their units) by active trainers, from the same rule that refuses a class or a result to a trainer not credentialed for the unit.",
    tags: ["admin"],
    access: "required",
    responses: { 200: { description: "The matrix", schema: credentialMatrixResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
  {
    method: "get",
    path: "/api/admin/validation-plans",
    operationId: "listValidationPlans",
    summary: "Validation plans",
    description: "Administrators. Open plans first (soonest), then completed ones.",
    tags: ["admin"],
    access: "required",
    responses: { 200: { description: "The plans", schema: validationPlanResponse, array: true }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
  {
    method: "post",
    path: "/api/admin/validation-plans",
    operationId: "createValidationPlan",
    summary: "Plan a validation",
    description: "Administrators. Course, date, sample size (1-50) and validators, each credentialed for the course's unit on the date.",
    tags: ["admin"],
    access: "required",
    body: validationPlanRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "The plan", schema: validationPlanResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No course has this id"),
      409: err("A validator is not credentialed for the unit on the date (the detail says why)"),
    },
  },
];
