import {
  courseValidationUpdateRequest,
  courseValidationResponse,
  credentialMatrixResponse,
  trainerActivityRequest,
  trainerCredentialsResponse,
  trainerUnitRequest,
  trainingCredentialRequest,
  validationCompleteRequest,
  validationFindingRequest,
  validationPlanDetailResponse,
  validationPlanRequest,
  validationPlanResponse,
} from "../standards-schemas";
import { type ApiOperation, BODY_FAILURES, err, FORBIDDEN, UNAUTHENTICATED } from "../operation";

/** What every call here answers to no credentials or the wrong role. */
const REFUSED = { 401: UNAUTHENTICATED, 403: FORBIDDEN } as const;
const NO_TRAINER = err("No trainer or administrator has this id");
const NO_PLAN = err("No validation plan has this id");
const credentials = (description: string) => ({
  description,
  schema: trainerCredentialsResponse,
});
const plan = (description: string) => ({
  description,
  schema: validationPlanDetailResponse,
});

/** How the OpenAPI document describes trainer credentials and course validation. */
export const standardsOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/credential-matrix",
    operationId: "credentialMatrix",
    summary: "Courses by trainers: held, expiring or missing",
    description:
      "Administrators. Active courses (their units) by active trainers, from the same rule that refuses a class or a result to a trainer not credentialed for the unit.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: { description: "The matrix", schema: credentialMatrixResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
    },
  },
  {
    method: "get",
    path: "/api/admin/validation-plans",
    operationId: "listValidationPlans",
    summary: "Validation plans",
    description: "Administrators. Open plans first (soonest), then completed ones.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: {
        description: "The plans",
        schema: validationPlanResponse,
        array: true,
      },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
    },
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
  {
    method: "get",
    path: "/api/admin/trainers/{id}/credentials",
    operationId: "getTrainerCredentials",
    summary: "A trainer's credentials, units and currency",
    description:
      "Administrators. The training and assessment credentials (or work under direction), units held or equivalent, industry currency and professional development activities, confirmed hours in the last 12 months, and why the trainer may teach no unit today (standing), if so.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: credentials("The trainer's credentials"),
      ...REFUSED,
      404: NO_TRAINER,
    },
  },
  {
    method: "post",
    path: "/api/admin/trainers/{id}/credentials",
    operationId: "addTrainingCredential",
    summary: "Record a training and assessment credential",
    description:
      "Administrators. A credential from the list, or under_direction with supervisor_id: an active trainer who holds a credential outright (never the trainer themself). Answers the trainer's credentials.",
    tags: ["admin"],
    access: "required",
    body: trainingCredentialRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: credentials("The trainer's credentials, with the new one"),
      ...REFUSED,
      404: NO_TRAINER,
    },
  },
  {
    method: "post",
    path: "/api/admin/trainers/{id}/units",
    operationId: "recordTrainerUnit",
    summary: "Record a unit held or an equivalent competency",
    description:
      "Administrators. Records, or replaces, the trainer's competency in one unit: held, or equivalent with its evidence described; an expiry day if it has one.",
    tags: ["admin"],
    access: "required",
    body: trainerUnitRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: credentials("The trainer's credentials, with the unit"),
      ...REFUSED,
      404: NO_TRAINER,
    },
  },
  {
    method: "post",
    path: "/api/admin/trainers/{id}/activities",
    operationId: "addTrainerActivity",
    summary: "Record a trainer's currency or development activity",
    description:
      "Administrators. Industry currency or professional development: the day (not in the future), hours to the quarter hour and what was done. Recorded by an administrator, it counts as confirmed.",
    tags: ["admin"],
    access: "required",
    body: trainerActivityRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: credentials("The trainer's credentials, with the activity"),
      ...REFUSED,
      404: NO_TRAINER,
    },
  },
  {
    method: "post",
    path: "/api/admin/trainer-activities/{id}/confirm",
    operationId: "confirmTrainerActivity",
    summary: "Confirm a trainer's own activity",
    description: "Administrators. Once: confirming again is a 409. Answers the trainer's credentials.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: credentials("The trainer's credentials"),
      ...REFUSED,
      404: err("No activity has this id"),
      409: err("Already confirmed"),
    },
  },
  {
    method: "get",
    path: "/api/credentials/my",
    operationId: "myCredentials",
    summary: "The caller's own credentials",
    description: "Trainers. Their own credentials, units and activities as the office holds them, never anyone else's.",
    tags: ["trainer"],
    access: "required",
    responses: {
      200: credentials("The caller's credentials"),
      ...REFUSED,
    },
  },
  {
    method: "post",
    path: "/api/credentials/my/activities",
    operationId: "addMyActivity",
    summary: "Record one's own currency or development activity",
    description:
      "Trainers. Industry currency or professional development: the day (not in the future), hours to the quarter hour and what was done. It waits for an administrator's confirmation.",
    tags: ["trainer"],
    access: "required",
    body: trainerActivityRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: credentials("The caller's credentials, with the activity unconfirmed"),
      ...REFUSED,
    },
  },
  {
    method: "get",
    path: "/api/admin/course-validations",
    operationId: "listCourseValidations",
    summary: "Each course's risk rating and next validation",
    description:
      "Administrators. Every active course, soonest next validation first: overdue (past the day), due (within 90 days) or scheduled; a course never rated counts as medium risk from the day it was added.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: {
        description: "The courses",
        schema: courseValidationResponse,
        array: true,
      },
      ...REFUSED,
    },
  },
  {
    method: "put",
    path: "/api/admin/course-validations/{id}",
    operationId: "setCourseValidation",
    summary: "Set a course's risk rating and next validation",
    description:
      "Administrators; the id is the course's. High risk: at most 12 months between validations, medium 36, low 60 (the ceiling). risk_rating and last_validated_on left out keep what was recorded; next_due_on left out is the latest the rating allows after the last validation (or the day the course was added); later than that is a 422.",
    tags: ["admin"],
    access: "required",
    body: courseValidationUpdateRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: {
        description: "The course's validation",
        schema: courseValidationResponse,
      },
      ...REFUSED,
      404: err("No course has this id"),
    },
  },
  {
    method: "get",
    path: "/api/admin/validation-plans/{id}",
    operationId: "getValidationPlan",
    summary: "One validation plan with its sample and findings",
    description: "Administrators.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: plan("The plan"),
      ...REFUSED,
      404: NO_PLAN,
    },
  },
  {
    method: "post",
    path: "/api/admin/validation-plans/{id}/sample",
    operationId: "drawValidationSample",
    summary: "Draw the sample",
    description:
      "Administrators. Once per plan: a random sample of the plan's size from the course's completed assessments, none made by a validator, from a seed the portal records with the population so the draw can be rerun.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: plan("The plan with its sample"),
      ...REFUSED,
      404: NO_PLAN,
      409: err("Already drawn, or fewer completed assessments by others than the sample size"),
    },
  },
  {
    method: "post",
    path: "/api/admin/validation-plans/{id}/findings",
    operationId: "recordValidationFinding",
    summary: "Record the finding on one sampled item",
    description:
      "Administrators. Whether the judgement meets the principles of assessment and rules of evidence (a finding is needed when it does not), what was found and the action; again corrects it. A does_not_meet finding can raise an improvement action (POST /api/admin/improvements, source_type validation, source_id the plan's id).",
    tags: ["admin"],
    access: "required",
    body: validationFindingRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: plan("The plan with the finding"),
      ...REFUSED,
      404: err("No such plan, or the item is not in its sample"),
      409: err("The validation is completed"),
    },
  },
  {
    method: "post",
    path: "/api/admin/validation-plans/{id}/complete",
    operationId: "completeValidation",
    summary: "Complete a validation",
    description:
      "Administrators. Once every item has its finding; an optional summary. The course counts as validated today and its next validation is the latest its rating allows.",
    tags: ["admin"],
    access: "required",
    body: validationCompleteRequest,
    responses: {
      ...BODY_FAILURES,
      200: plan("The completed plan"),
      ...REFUSED,
      404: NO_PLAN,
      409: err("Completed already, no sample drawn, or findings still open (the detail says how many)"),
    },
  },
  {
    method: "get",
    path: "/api/trainer-activities/{id}/evidence",
    operationId: "downloadActivityEvidence",
    summary: "A currency or development activity's evidence file",
    description:
      "The activity's own trainer or an administrator: the file as an attachment (Content-Disposition) with X-Content-Type-Options: nosniff, its type the one read from its bytes. Every download is written to the audit trail. Anyone else, or an activity without a file, is told it does not exist.",
    tags: ["trainer"],
    access: "required",
    responses: {
      200: { description: "The file's bytes", binary: true },
      ...REFUSED,
      404: err("No activity the caller may see has this id, or it has no file"),
    },
  },
  {
    method: "post",
    path: "/api/trainer-activities/{id}/evidence",
    operationId: "attachActivityEvidence",
    summary: "Attach an activity's evidence file",
    description:
      "The activity's own trainer while it waits for confirmation, or an administrator: multipart/form-data, one file in a part named evidence_file (at most 25 MB, counted as it streams in), kept in the evidence store. Its type is read from its bytes (a photo, PDF or MP4); location data is removed from photos and videos. Replaces any file before it. Answers the trainer's credentials.",
    tags: ["trainer"],
    access: "required",
    fileParts: "evidence_file",
    responses: {
      200: credentials("The trainer's credentials, the activity with its file"),
      400: err("The multipart body could not be read"),
      ...REFUSED,
      404: err("No activity the caller may attach to has this id"),
      409: err("A trainer's activity that is confirmed keeps its evidence"),
      413: err("The body is larger than the upload limit"),
      415: err("The body is not multipart/form-data"),
      422: err("No file, more than one, a file over 25 MB or one that is not a photo, PDF or MP4 by its bytes; `errors.evidence_file` says why"),
    },
  },
];
