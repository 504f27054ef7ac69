import { RATE_LIMITS } from "~/security/rate-limits.server";
import { complaintListQuery } from "~/schemas/complaint";
import {
  acknowledgeRequest,
  appealRequest,
  assignDeciderRequest,
  complaintRequest,
  complaintResponse,
  itemImprovementRequest,
  lodgedResponse,
  resolveRequest,
} from "../complaint-schemas";
import { improvementActionResponse } from "../improvement-schemas";
import { BODY_FAILURES, err, FORBIDDEN, INVALID, type ApiOperation, UNAUTHENTICATED } from "../operation";

const NOT_FOUND = err("No complaint or appeal with this id that the caller may read");
const item = { description: "The item as it now stands", schema: complaintResponse };

const { complaintClient, complaintEmail } = RATE_LIMITS;

/** How the OpenAPI document describes complaints and appeals: lodging them, and the register's steps. */
export const complaintOperations: ApiOperation[] = [
  {
    method: "post",
    path: "/api/complaints",
    operationId: "lodgeComplaint",
    summary: "Lodge a complaint",
    description:
      "Anyone: name, email and phone are optional (anonymous is allowed); signed in, it is linked to the caller's account and mailed there. Answers the reference and the acknowledge-by and resolve-by days; an acknowledgement mail is queued when there is an address. Details over 10,000 characters: a 422 and nothing stored. " +
      `At most ${complaintClient.limit} complaints per client per hour, and ${complaintEmail.limit} acknowledgements to one typed address per day from every client together; the rest get 429 with Retry-After and nothing is stored or mailed.`,
    tags: ["complaints"],
    access: "optional",
    body: complaintRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "Received", schema: lodgedResponse },
      429: err("Too many complaints from this client, or acknowledgements to this address; see Retry-After"),
    },
  },
  {
    method: "get",
    path: "/api/appeals",
    operationId: "listMyAppeals",
    summary: "The caller's appeals",
    description: "Learners. Their own appeals, overdue first, then the newest.",
    tags: ["complaints"],
    access: "required",
    responses: { 200: { description: "The appeals", schema: complaintResponse, array: true }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
  {
    method: "post",
    path: "/api/appeals",
    operationId: "lodgeAppeal",
    summary: "Appeal an assessment decision",
    description:
      "Learners. An appeal of a decision on one of their own assessments (a unit's pass or fail, or a licence part's result). Another's assessment, or an unknown one, is a 404; one with no result yet, or with an appeal still open, is a 409. Nothing is stored on any refusal.",
    tags: ["complaints"],
    access: "required",
    body: appealRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "Received", schema: lodgedResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No assessment of the caller's has this id"),
      409: err("No result to appeal yet, or an appeal of it is still open"),
    },
  },
  {
    method: "get",
    path: "/api/admin/complaints",
    operationId: "listComplaints",
    summary: "The complaints and appeals register",
    description:
      "Administrators read every item; a trainer reads the appeals assigned to them to decide (without contact details). Overdue first, then the newest; filtered as /admin/complaints is.",
    tags: ["complaints"],
    access: "required",
    query: complaintListQuery,
    responses: { 200: { description: "The items", schema: complaintResponse, array: true }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 422: INVALID },
  },
  {
    method: "get",
    path: "/api/admin/complaints/{id}",
    operationId: "getComplaint",
    summary: "One complaint or appeal",
    description: "Administrators; a trainer for an appeal assigned to them to decide.",
    tags: ["complaints"],
    access: "required",
    responses: { 200: { description: "The item", schema: complaintResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND },
  },
  {
    method: "post",
    path: "/api/admin/complaints/{id}/acknowledge",
    operationId: "acknowledgeComplaint",
    summary: "Mark an item acknowledged",
    description:
      "Administrators; a trainer for an appeal assigned to them. Records who and when; an item already acknowledged or resolved is a 409. Takes no fields.",
    tags: ["complaints"],
    access: "required",
    body: acknowledgeRequest,
    responses: { ...BODY_FAILURES, 200: item, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND, 409: err("Already acknowledged or resolved") },
  },
  {
    method: "post",
    path: "/api/admin/complaints/{id}/assign",
    operationId: "assignAppealDecider",
    summary: "Assign who decides an appeal",
    description: "Administrators. An active trainer or administrator other than the assessor whose decision is appealed (the assessor: 409).",
    tags: ["complaints"],
    access: "required",
    body: assignDeciderRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: item,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: err("Not an appeal, already resolved, or the decider is the assessor"),
    },
  },
  {
    method: "post",
    path: "/api/admin/complaints/{id}/resolve",
    operationId: "resolveComplaint",
    summary: "Resolve a complaint or decide an appeal",
    description:
      "Administrators resolve complaints and decide appeals; a trainer decides an appeal assigned to them. The outcome and reasons are recorded and mailed to whoever lodged it (when there is an address). An upheld or partly upheld appeal may change the result (new_status for a unit; hrw_part and hrw_result for a licence part). The assessor whose decision is appealed never decides it, even as an administrator: 409.",
    tags: ["complaints"],
    access: "required",
    body: resolveRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: item,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: err("Already resolved, the caller is the assessor, or the appeal is not assigned to the caller"),
    },
  },
  {
    method: "post",
    path: "/api/admin/complaints/{id}/improvements",
    operationId: "raiseImprovementFromComplaint",
    summary: "Raise an improvement action from an item",
    description: "Administrators. An improvement action whose source is this complaint or appeal; the owner is an active trainer or administrator.",
    tags: ["complaints"],
    access: "required",
    body: itemImprovementRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "The action raised", schema: improvementActionResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  },
];
