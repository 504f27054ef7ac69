import { MAX_EVIDENCE_FILES } from "~/files/types";
import { recognitionListQuery } from "~/schemas/recognition";
import { evidenceListResponse, evidenceUploadResponse } from "../evidence-schemas";
import {
  recognitionApplyConflictResponse,
  recognitionApplyRequest,
  recognitionAssignRequest,
  recognitionAuthenticateRequest,
  recognitionDecideRequest,
  recognitionDetailResponse,
  recognitionResponse,
} from "../recognition-schemas";
import { BODY_FAILURES, err, FORBIDDEN, INVALID, type ApiOperation, UNAUTHENTICATED } from "../operation";

const NOT_FOUND = err("No application with this id that the caller may read");
const item = { description: "The application as it now stands", schema: recognitionResponse };
const STEP_CONFLICT = err(
  "Already decided, the wrong kind of application for this step, or a rule refuses it (no authentication yet, no or not this assessor, an assessor not credentialed for the unit today)",
);

/** How the OpenAPI document describes credit transfer and RPL (CONTRACT 24): the register, applying, the staff's steps, evidence. */
export const recognitionOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/recognition",
    operationId: "listRecognitions",
    summary: "The register of recognitions",
    description:
      "Each role's view, scoped in the query: a learner their own applications, a trainer the RPLs they assess, administrators all; newest first, filtered as the register page is (its CSV is /recognition.csv).",
    tags: ["recognition"],
    access: "required",
    query: recognitionListQuery,
    responses: { 200: { description: "The applications", schema: recognitionResponse, array: true }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 422: INVALID },
  },
  {
    method: "post",
    path: "/api/recognition",
    operationId: "applyForRecognition",
    summary: "Apply for credit transfer or RPL",
    description:
      "A learner for one of their own current enrolments, or an administrator on a learner's behalf. A unit carrying a high-risk work licence class is refused at once: 409 with the reason as `detail` and, as `id`, the refused application kept on the register. An RPL is invoiced the course's RPL fee. Another's enrolment, or an unknown one, is a 404; one already waiting or granted, or not current, a 409.",
    tags: ["recognition"],
    access: "required",
    body: recognitionApplyRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "The application", schema: recognitionResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No current enrolment of the learner's has this id"),
      409: {
        description: "A licence unit refused (its application kept, named by `id`), an application already waiting or granted, or the enrolment not current",
        schema: recognitionApplyConflictResponse,
      },
    },
  },
  {
    method: "get",
    path: "/api/recognition/{id}",
    operationId: "getRecognition",
    summary: "One application",
    description:
      "Its learner, its assessor, or an administrator; anyone else is told it does not exist. `decisions` lists every decision oldest first, one set aside by an upheld appeal marked with it.",
    tags: ["recognition"],
    access: "required",
    responses: {
      200: { description: "The application as it now stands, with every decision on it", schema: recognitionDetailResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  },
  {
    method: "post",
    path: "/api/recognition/{id}/authenticate",
    operationId: "authenticateCreditTransfer",
    summary: "Record a credit transfer's authentication and equivalence",
    description:
      "Administrators: the issuing RTO's code, the document number, how and when it was checked (the caller is the checker), and the equivalence (the same unit, or the equivalent or superseded unit held with its mapping). The date checked cannot be in the future, and the issuing RTO cannot be this RTO (a 422 at the field).",
    tags: ["recognition"],
    access: "required",
    body: recognitionAuthenticateRequest,
    bodyRequired: true,
    responses: { ...BODY_FAILURES, 200: item, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND, 409: STEP_CONFLICT },
  },
  {
    method: "post",
    path: "/api/recognition/{id}/assessor",
    operationId: "assignRecognitionAssessor",
    summary: "Assign an RPL's assessor",
    description:
      'Administrators: a trainer the credential matrix holds current for the unit today. Someone who is not an active trainer is a 422 at `assessor_id` ("Choose an active trainer"); a trainer not credentialed for the unit today a 409 naming why.',
    tags: ["recognition"],
    access: "required",
    body: recognitionAssignRequest,
    bodyRequired: true,
    responses: { ...BODY_FAILURES, 200: item, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND, 409: STEP_CONFLICT },
  },
  {
    method: "post",
    path: "/api/recognition/{id}/decision",
    operationId: "decideRecognition",
    summary: "Decide an application",
    description:
      "Credit transfer: an administrator grants (outcome 60, once authenticated: the unit leaves the timetable and a credit note credits what was paid for it) or refuses. RPL: its assessor, credentialed on the day, grants (51) or does not grant (52); granting needs every item of one of the unit's reviewed observation checklists marked by that assessor on the application (otherwise 409). Only an administrator may refuse one, and never judges it. A licence unit is never granted. The learner is mailed the decision and reasons, and may appeal.",
    tags: ["recognition"],
    access: "required",
    body: recognitionDecideRequest,
    bodyRequired: true,
    responses: { ...BODY_FAILURES, 200: item, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND, 409: STEP_CONFLICT },
  },
  {
    method: "get",
    path: "/api/recognition/{id}/evidence",
    operationId: "listRecognitionEvidence",
    summary: "An application's evidence",
    description: "Its learner, its assessor or an administrator: the files attached, oldest first (declarations are empty for an application).",
    tags: ["recognition"],
    access: "required",
    responses: { 200: { description: "The files", schema: evidenceListResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND },
  },
  {
    method: "post",
    path: "/api/recognition/{id}/evidence",
    operationId: "uploadRecognitionEvidence",
    summary: "Add evidence to an application",
    description: `Its learner or its assessor while it waits, or an administrator. multipart/form-data, each file in a part named \`files\`, at most ${MAX_EVIDENCE_FILES} at once and 25 MB each: the evidence store's checks (type from the bytes, location data removed).`,
    tags: ["recognition"],
    access: "required",
    fileParts: "files",
    responses: {
      201: { description: "The files added", schema: evidenceUploadResponse },
      400: err("The multipart body could not be read"),
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: err("The application has been decided"),
      413: err("The body is larger than the upload limit"),
      415: err("The body is not multipart/form-data"),
      422: err("No file, too many, a file over 25 MB or one that is not a photo, PDF or MP4 by its bytes; `errors.files` says which"),
    },
  },
];
