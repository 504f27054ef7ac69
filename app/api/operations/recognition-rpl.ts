import {
  refereeRequestRequest,
  refereeRequestResponse,
  sessionBookRequest,
  sessionCancelRequest,
  sessionRescheduleRequest,
  sessionResponse,
} from "../recognition-rpl-schemas";
import { BODY_FAILURES, err, FORBIDDEN, type ApiOperation, UNAUTHENTICATED } from "../operation";

const NOT_FOUND = err("No application with this id that the caller may read (for a POST: that the caller assesses, or any for an administrator)");
const SESSION_NOT_FOUND = err("No application with this id that the caller assesses (any for an administrator), or no session with that session_id on it");
const STEP_CONFLICT = err(
  "Not an RPL, already decided, or (sessions) no assessor assigned, the assessor not credentialed for the unit on the day, or already booked then",
);

/** How the OpenAPI document describes an RPL's third-party reports and competency sessions (issue 56). */
export const recognitionRplOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/recognition/{id}/referee-requests",
    operationId: "listRecognitionRefereeRequests",
    summary: "An RPL's third-party reports",
    description:
      "Its learner, its assessor or an administrator, oldest first. The learner reads who was asked and whether the report arrived; the referee's address and report are for the assessor and administrators.",
    tags: ["recognition"],
    access: "required",
    responses: { 200: { description: "The requests", schema: refereeRequestResponse, array: true }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND },
  },
  {
    method: "post",
    path: "/api/recognition/{id}/referee-requests",
    operationId: "requestRecognitionRefereeReport",
    summary: "Ask a referee for a third-party report",
    description:
      "The RPL's assessor or an administrator, while it waits for its decision. The referee is mailed a link to the report form: it works once, for 30 days, and only its hash is stored.",
    tags: ["recognition"],
    access: "required",
    body: refereeRequestRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "The request", schema: refereeRequestResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: STEP_CONFLICT,
    },
  },
  {
    method: "get",
    path: "/api/recognition/{id}/sessions",
    operationId: "listRecognitionSessions",
    summary: "An RPL's competency sessions",
    description: "Its learner, its assessor or an administrator: competency conversations and practical challenges by time, cancelled ones included.",
    tags: ["recognition"],
    access: "required",
    responses: { 200: { description: "The sessions", schema: sessionResponse, array: true }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND },
  },
  {
    method: "post",
    path: "/api/recognition/{id}/sessions",
    operationId: "bookRecognitionSession",
    summary: "Book a competency conversation or practical challenge",
    description:
      "The RPL's assessor or an administrator, while it waits, with its assessor assigned. Refused: a time already passed or running past midnight (422), the assessor not credentialed for the unit on the day or already booked then, in another RPL session or a class they teach (409). The learner is mailed.",
    tags: ["recognition"],
    access: "required",
    body: sessionBookRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "The session", schema: sessionResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: STEP_CONFLICT,
    },
  },
  {
    method: "post",
    path: "/api/recognition/{id}/sessions/reschedule",
    operationId: "rescheduleRecognitionSession",
    summary: "Move a booked competency session",
    description:
      "The RPL's assessor or an administrator, while it waits: a new day, time, length, place and notes for the session named by session_id, with the same checks as booking (422 for a time passed or running past midnight, 409 for a clash or an assessor not credentialed on the day, or a session already cancelled). The learner is mailed.",
    tags: ["recognition"],
    access: "required",
    body: sessionRescheduleRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: { description: "The session as moved", schema: sessionResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: SESSION_NOT_FOUND,
      409: STEP_CONFLICT,
    },
  },
  {
    method: "post",
    path: "/api/recognition/{id}/sessions/cancel",
    operationId: "cancelRecognitionSession",
    summary: "Cancel a booked competency session",
    description:
      "The RPL's assessor or an administrator, with the reason. The session stays on the application, marked cancelled with who, when and why, and leaves the calendar feeds; the learner is mailed. A session already cancelled: 409.",
    tags: ["recognition"],
    access: "required",
    body: sessionCancelRequest,
    bodyRequired: true,
    responses: { ...BODY_FAILURES, 204: { description: "Cancelled" }, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: SESSION_NOT_FOUND, 409: STEP_CONFLICT },
  },
];
