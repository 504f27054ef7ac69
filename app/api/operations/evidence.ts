import { checklistResponse, evidenceListResponse, retentionResponse } from "../evidence-schemas";
import { type ApiOperation, err, FORBIDDEN, UNAUTHENTICATED } from "../operation";

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
    responses: { 200: { description: "The files and declarations", schema: evidenceListResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: err("No assessment the caller may see has this kind and id") },
  },
  {
    method: "get",
    path: "/api/admin/checklists",
    operationId: "listChecklists",
    summary: "Observation checklists",
    description: "Administrators. Every course's observation checklists with their items (each mapped to the unit's element or performance criterion, and the NAI part for licence courses) and whether each was reviewed before use.",
    tags: ["admin"],
    access: "required",
    responses: { 200: { description: "The checklists, by course", schema: checklistResponse, array: true }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
  {
    method: "get",
    path: "/api/admin/retention",
    operationId: "getRetention",
    summary: "Retention rules and what is due for destruction",
    description: "Administrators. How long each kind of record is kept, and the evidence files past their keep-until day; destroying them is confirmed on /admin/retention.",
    tags: ["admin"],
    access: "required",
    responses: { 200: { description: "The rules and the due items", schema: retentionResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
];
