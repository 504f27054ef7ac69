import { EVIDENCE_MEDIA_TYPES, MAX_EVIDENCE_FILES } from "~/files/types";
import {
  assessmentChecklistResponse,
  checklistMarksRequest,
  checklistRequest,
  checklistUpdateRequest,
  checklistResponse,
  destroyedResponse,
  destroyRequest,
  evidenceListResponse,
  evidenceUploadResponse,
  retentionResponse,
  signatureRequest,
  signatureResponse,
} from "../evidence-schemas";
import { type ApiOperation, BODY_FAILURES, err, FORBIDDEN, INVALID, UNAUTHENTICATED } from "../operation";

const NOT_YOURS = err("No assessment the caller may see has this kind and id");
const types = Object.values(EVIDENCE_MEDIA_TYPES)
  .map((t) => t.label)
  .join(", ");

/** How the OpenAPI document describes the assessment evidence calls. */
export const evidenceOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/assessments/{kind}/{id}/evidence",
    operationId: "listAssessmentEvidence",
    summary: "An assessment's evidence",
    description:
      "The learner it belongs to, its assessor or an admin. `kind` is `unit` (a unit assessment) or `hrw` (a high-risk work licence assessment). The files attached, oldest first, and the declarations signed. Anyone else is told the assessment does not exist.",
    tags: ["trainer"],
    access: "required",
    responses: { 200: { description: "The files and declarations", schema: evidenceListResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_YOURS },
  },
  {
    method: "post",
    path: "/api/assessments/{kind}/{id}/evidence",
    operationId: "uploadAssessmentEvidence",
    summary: "Add evidence files to an assessment",
    description: `Its assessor (a trainer). multipart/form-data, each file in a part named \`files\`, at most ${MAX_EVIDENCE_FILES} at once and 25 MB each, counted as the body streams in. Each file's type is read from its bytes (${types}), whatever its name; location data is removed from photos and videos; a file sent twice is stored once. One refused file refuses the upload, naming each, and nothing is kept.`,
    tags: ["trainer"],
    access: "required",
    fileParts: "files",
    responses: {
      201: { description: "The files added", schema: evidenceUploadResponse },
      400: err("The multipart body could not be read"),
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_YOURS,
      413: err("The body is larger than the upload limit"),
      415: err("The body is not multipart/form-data"),
      422: err("No file, too many, a file over 25 MB or one that is not a photo, PDF or MP4 by its bytes; `errors.files` says which"),
    },
  },
  {
    method: "get",
    path: "/api/evidence/{id}/download",
    operationId: "downloadEvidence",
    summary: "One evidence file's bytes",
    description:
      "The learner it belongs to, its assessor or an admin: the file as an attachment (Content-Disposition) with X-Content-Type-Options: nosniff, its type the one read from its bytes. Each download by staff is written to the audit trail. Anyone else is told it does not exist.",
    tags: ["trainer"],
    access: "required",
    responses: {
      200: { description: "The file's bytes", binary: true },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No evidence file the caller may see has this id"),
    },
  },
  {
    method: "get",
    path: "/api/assessments/{kind}/{id}/checklist",
    operationId: "listAssessmentChecklists",
    summary: "An assessment's observation checklists and marks",
    description:
      "The learner, the assessor or an admin. The course's checklists (only those reviewed before use may be marked) with this assessment's mark of each item.",
    tags: ["trainer"],
    access: "required",
    responses: {
      200: { description: "The checklists with their marks", schema: assessmentChecklistResponse, array: true },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_YOURS,
    },
  },
  {
    method: "post",
    path: "/api/assessments/{kind}/{id}/checklist",
    operationId: "markAssessmentChecklist",
    summary: "Mark a checklist on an assessment",
    description:
      "Its assessor. Every item of a checklist reviewed before use, satisfactory or not yet, each with an optional comment; marking again replaces the earlier marks item by item.",
    tags: ["trainer"],
    access: "required",
    body: checklistMarksRequest,
    responses: {
      200: { description: "That checklist with its marks", schema: assessmentChecklistResponse, array: true },
      ...BODY_FAILURES,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No assessment of the caller's has this kind and id, or the course has no such checklist"),
      422: err("An item left unmarked (`errors.result_<item id>`), or the checklist is not reviewed before use"),
    },
  },
  {
    method: "post",
    path: "/api/assessments/{kind}/{id}/signatures",
    operationId: "signAssessment",
    summary: "Sign a declaration on an assessment",
    description:
      "The assessor signs the assessor's declaration; the candidate's is signed by the candidate from their own login, or typed on the assessor's device (the assessor's credentials). The typed name must be the signer's full name on record; the time and the client are kept. Each declaration is signed once.",
    tags: ["trainer", "student"],
    access: "required",
    body: signatureRequest,
    responses: {
      201: { description: "The declaration as signed", schema: signatureResponse },
      ...BODY_FAILURES,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No assessment the caller may sign has this kind and id"),
      422: INVALID,
    },
  },
  {
    method: "get",
    path: "/api/admin/checklists",
    operationId: "listChecklists",
    summary: "Observation checklists",
    description:
      "Administrators. Every course's observation checklists with their items (each mapped to the unit's element or performance criterion, and the NAI part for licence courses) and whether each was reviewed before use.",
    tags: ["admin"],
    access: "required",
    responses: { 200: { description: "The checklists, by course", schema: checklistResponse, array: true }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
  {
    method: "post",
    path: "/api/admin/checklists",
    operationId: "createChecklist",
    summary: "Create an observation checklist",
    description: "Administrators. A course's checklist, its items in order. It must be reviewed before use (POST …/review) before a trainer can mark it.",
    tags: ["admin"],
    access: "required",
    body: checklistRequest,
    responses: {
      201: { description: "The checklist, not yet reviewed", schema: checklistResponse },
      ...BODY_FAILURES,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No course has this id"),
    },
  },
  {
    method: "put",
    path: "/api/admin/checklists/{id}",
    operationId: "updateChecklist",
    summary: "Edit an observation checklist",
    description:
      "Administrators. Replaces its course, title or items (fields left out stay as they are), which clears its review: it must be reviewed again before use. Marks already made on assessments stay with those records.",
    tags: ["admin"],
    access: "required",
    body: checklistUpdateRequest,
    responses: {
      200: { description: "The checklist, not yet reviewed", schema: checklistResponse },
      ...BODY_FAILURES,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No checklist or course has this id"),
    },
  },
  {
    method: "post",
    path: "/api/admin/checklists/{id}/review",
    operationId: "reviewChecklist",
    summary: "Mark a checklist reviewed before use",
    description: "Administrators. No body. From then trainers may mark it on assessments.",
    tags: ["admin"],
    access: "required",
    bodyRequired: false,
    responses: {
      200: { description: "The checklist, reviewed", schema: checklistResponse },
      400: BODY_FAILURES[400],
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No checklist has this id"),
    },
  },
  {
    method: "get",
    path: "/api/admin/retention",
    operationId: "getRetention",
    summary: "Retention rules and what is due for destruction",
    description:
      "Administrators. How long each kind of record is kept, and the evidence files past their keep-until day (certification records and the audit trail are never listed).",
    tags: ["admin"],
    access: "required",
    responses: { 200: { description: "The rules and the due items", schema: retentionResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
  {
    method: "post",
    path: "/api/admin/retention/destroy",
    operationId: "destroyRecords",
    summary: "Approve the destruction of records past their keep-until day",
    description:
      'Administrators. `ids` from the due list of GET /api/admin/retention and `confirm: "yes"`. Each file\'s bytes are removed (unless another record uses them); a tombstone (what, whose, hashes, by whom, when) and an audit entry stay. If any id is not due, nothing is destroyed.',
    tags: ["admin"],
    access: "required",
    body: destroyRequest,
    responses: { 200: { description: "The tombstones left", schema: destroyedResponse }, ...BODY_FAILURES, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
];
