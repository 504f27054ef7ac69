import type { RecognitionSessionKind } from "#db/schema-recognition";

/**
 * The words of an RPL's third-party reports and competency sessions, zod-free so pages' browser
 * code can read them (the schemas are in recognition-rpl.ts, the rules in
 * app/models/recognition/recognition-referee.server.ts and recognition-session.server.ts).
 */

export { RECOGNITION_SESSION_KINDS } from "#db/schema-recognition";

/** How long a referee's link works. */
export const REFEREE_LINK_DAYS = 30;

export const SESSION_KIND_LABELS: Record<RecognitionSessionKind, string> = {
  conversation: "Competency conversation",
  practical: "Practical challenge",
};

/** The shortest and longest session one booking holds, in minutes. */
export const SESSION_MINUTES = { min: 15, max: 480 } as const;

export const REFEREE_DECLARATION =
  "I declare that the information in this report is true and correct, that I saw the work described, and I agree that the RTO may contact me to confirm it.";

export const RPL_STEP_MESSAGES = {
  notRpl: "Third-party reports and competency sessions belong to an RPL application",
  notOpen: "This application has already been decided",
  notAssessorOrAdmin: "Only the application's assessor or an administrator does this",
  noAssessor: "Assign a credentialed assessor before booking a session",
  refereeUnknown: "This report link is not valid. Check that you copied the whole link from the email, or ask the RTO for a new one.",
  refereeUsed: "This report has already been sent: each link works once. Thank you. If something needs correcting, contact the RTO.",
  refereeExpired: `This report link has expired: each link works for ${REFEREE_LINK_DAYS} days after it is sent. Nothing was recorded; ask the RTO for a new link.`,
  refereeClosed: "The application this report was for has been decided, so the report is no longer needed. Nothing was recorded.",
  refereeThanks: "Thank you: your report has been sent to the assessor.",
  tooManyReports: "Too many reports have been sent from your network. Please wait an hour and try again.",
  declarationNeeded: "Tick the declaration to send the report",
  workedToBeforeFrom: "The end of the period must not be before its start",
  workedInFuture: "The period must not end after today",
  sessionPast: "Choose a time that has not passed",
  sessionPastMidnight: "The session must end by midnight on the day it starts",
  doubleBooked: (what: string) => `The assessor is already booked then: ${what}. Choose another time.`,
  sessionUnknown: "This session is not booked on this application",
  sessionCancelled: "This session has been cancelled",
  locationUnknown: "Choose one of the delivery locations",
} as const;
