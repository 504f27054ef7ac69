/**
 * The assessment form's values and wording shown on pages, kept free of zod so they do not pull
 * the validator into the browser; app/schemas/assessment.ts builds its rules from them.
 */

export const ASSESSMENT_TYPES = ["Written", "Practical", "Oral", "Observation"] as const;
export const MAX_SCORE_LIMIT = 1000;

/**
 * What "Pending Assessments" counts (computed in assessment.server.ts); shown beside the figure.
 * Kept here, outside the server module, so the browser bundle has the text too.
 */
export const PENDING_ASSESSMENT_DEFINITION =
  "Current enrolments whose latest assessment is in progress or awaiting resubmission, or that are in progress with no assessment yet.";
