/** Wording shown on pages, kept free of zod so it does not pull the validator into the browser. */

/**
 * What "Pending Assessments" counts (computed in assessment.server.ts); shown beside the figure.
 * Kept here, outside the server module, so the browser bundle has the text too.
 */
export const PENDING_ASSESSMENT_DEFINITION =
  "Current enrolments whose latest assessment is in progress or awaiting resubmission, or that are in progress with no assessment yet.";
