import { formatDate } from "~/utils/format";

/**
 * The words and figures of trainer credentials and course validation that pages, models and
 * /api share (zod-free, so components may import it). docs/decisions/030 explains the figures.
 */

/**
 * Training and assessment credentials the portal accepts as held outright. A trainer without
 * one may work under the direction of someone who holds one (`under_direction`).
 */
export const TRAINING_CREDENTIALS = {
  TAE40122: "TAE40122 Certificate IV in Training and Assessment",
  TAE40116_UPGRADE: "TAE40116 Certificate IV in Training and Assessment, with TAELLN411 (or TAELLN401A) and TAEASS502",
  TAE50122: "TAE50122 Diploma of Vocational Education and Training",
  TAE50216: "TAE50216 Diploma of Training Design and Development",
  HIGHER_ADULT_ED: "A diploma or higher qualification in adult education",
} as const;
export type TrainingCredentialCode = keyof typeof TRAINING_CREDENTIALS;
export const TRAINING_CREDENTIAL_CODES = Object.keys(TRAINING_CREDENTIALS) as [TrainingCredentialCode, ...TrainingCredentialCode[]];
export const UNDER_DIRECTION = "under_direction";
export const CREDENTIAL_CHOICES = [...TRAINING_CREDENTIAL_CODES, UNDER_DIRECTION] as const;
export type CredentialChoice = (typeof CREDENTIAL_CHOICES)[number];

export function credentialLabel(code: string, supervisorName?: string | null): string {
  if (code === UNDER_DIRECTION) return `Working under the direction of ${supervisorName ?? "a credentialed trainer"}`;
  return TRAINING_CREDENTIALS[code as TrainingCredentialCode] ?? code;
}

export const UNIT_BASES = { held: "Unit held", equivalent: "Equivalent competency (with evidence)" } as const;
export type UnitBasis = keyof typeof UNIT_BASES;
export const UNIT_BASIS_CODES = Object.keys(UNIT_BASES) as [UnitBasis, ...UnitBasis[]];

export const ACTIVITY_KINDS = { industry: "Industry currency", development: "Professional development" } as const;
export type ActivityKind = keyof typeof ACTIVITY_KINDS;
export const ACTIVITY_KIND_CODES = Object.keys(ACTIVITY_KINDS) as [ActivityKind, ...ActivityKind[]];

/** A credential or unit this close to its expiry shows as expiring (the matrix, the dashboard). */
export const CREDENTIAL_WARNING_DAYS = 60;
/** Industry currency and development counted on the trainer's row: the last 12 months. */
export const CURRENCY_WINDOW_MONTHS = 12;

/** Each matrix cell: the trainer may teach and assess the course's unit, soon may not, or may not. */
export const MATRIX_STATES = { held: "Held", expiring: "Expiring", missing: "Missing" } as const;
export type MatrixState = keyof typeof MATRIX_STATES;

/**
 * How often a course is validated, by its risk rating: never more than 5 years apart (the
 * Standards' ceiling), sooner for higher risk (decision 030 gives the reasons for 12 and 36).
 */
export const RISK_RATINGS = { low: "Low", medium: "Medium", high: "High" } as const;
export type RiskRating = keyof typeof RISK_RATINGS;
export const RISK_RATING_CODES = Object.keys(RISK_RATINGS) as [RiskRating, ...RiskRating[]];
export const VALIDATION_INTERVAL_MONTHS: Record<RiskRating, number> = { low: 60, medium: 36, high: 12 };
/** The longest any course may go between validations. */
export const VALIDATION_CEILING_MONTHS = 60;
/** A course is "due" this many days before its next validation day. */
export const VALIDATION_DUE_DAYS = 90;
/** A course never rated yet: medium risk, counted from the day it was added to the catalogue. */
export const DEFAULT_RISK: RiskRating = "medium";

export const VALIDATION_STATES = { overdue: "Overdue", due: "Due", scheduled: "Scheduled" } as const;
export type ValidationState = keyof typeof VALIDATION_STATES;

export const FINDING_OUTCOMES = {
  meets: "Meets the principles of assessment and rules of evidence",
  does_not_meet: "Does not meet: action needed",
} as const;
export type FindingOutcome = keyof typeof FINDING_OUTCOMES;
export const FINDING_OUTCOME_CODES = Object.keys(FINDING_OUTCOMES) as [FindingOutcome, ...FindingOutcome[]];

export const SAMPLE_SIZE_MAX = 50;
export const VALIDATORS_MAX = 6;

/** Where an improvement action is raised from a validation (the improvement register's form). */
export const improvementFromValidation = (planId: string) => `/admin/improvements/new?source_type=validation&source_id=${encodeURIComponent(planId)}`;

export const STANDARDS_MESSAGES = {
  noCredential: (name: string, date: string) => `${name} holds no training and assessment credential on ${formatDate(date)}`,
  supervisorNotCredentialed: (name: string, supervisor: string, date: string) =>
    `${name} works under the direction of ${supervisor}, who holds no training and assessment credential on ${formatDate(date)}`,
  noUnit: (name: string, unit: string, date: string) => `${name} is not credentialed for unit ${unit} on ${formatDate(date)}`,
  supervisorRequired: "Name the credentialed trainer directing the work",
  supervisorSelf: "A trainer cannot work under their own direction",
  supervisorNotHolder: "The supervisor must hold a training and assessment credential of their own",
  supervisorNotWanted: "A supervisor is named only for work under direction",
  evidenceRequired: "Describe the evidence of the equivalent competency",
  expiryBeforeIssue: "The expiry date cannot be before the date issued",
  notATrainer: "Choose an active trainer",
  alreadyConfirmed: "This activity is already confirmed",
  activityInFuture: "The activity date cannot be in the future",
  oneEvidenceFile: "Attach one evidence file to an activity",
  confirmedKeepsEvidence: "This activity is confirmed: its evidence stays as confirmed (ask the office to change it)",
  nextDueTooLate: (months: number, latest: string) =>
    `A course of this risk is validated at most ${months} months after the last: the latest next validation is ${formatDate(latest)}`,
  validatorNotCredentialed: (reason: string) => `Every validator must be credentialed for the unit: ${reason}`,
  sampleDrawn: "The sample for this plan is already drawn",
  sampleTooLarge: (population: number, size: number) =>
    population === 0
      ? "No completed assessments of this course were made by anyone outside the validation team: nothing to sample"
      : `Only ${population} completed assessment${population === 1 ? "" : "s"} of this course were made by anyone outside the validation team; the plan asks for ${size}. Plan a smaller sample.`,
  planCompleted: "This validation is completed",
  findingsMissing: (n: number) => `Record a finding for every item of the sample first (${n} still open)`,
  noSample: "Draw the sample first",
  findingNeeded: "Describe what the validators found",
} as const;
