import { z } from "zod";
import {
  courseValidationSchema,
  trainerActivitySchema,
  trainerUnitSchema,
  trainingCredentialSchema,
  validationCompleteSchema,
  validationFindingSchema,
  validationPlanSchema,
} from "~/schemas/standards";
import {
  ACTIVITY_KIND_CODES,
  CREDENTIAL_CHOICES,
  FINDING_OUTCOME_CODES,
  MATRIX_STATES,
  RISK_RATING_CODES,
  UNIT_BASIS_CODES,
  VALIDATION_STATES,
  type MatrixState,
  type ValidationState,
} from "~/schemas/standards-text";
import { requests, responses } from "./schemas";

/** The /api shapes of trainer credentials and course validation (registered in the OpenAPI document). */

const date = z.iso.date().describe("YYYY-MM-DD");
const course = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  unit_code: z.string(),
});
const person = z.strictObject({ id: z.uuid(), full_name: z.string() });
const instant = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time");

export const credentialMatrixResponse = z
  .strictObject({
    today: date,
    courses: z.array(course),
    trainers: z.array(
      z.strictObject({
        id: z.uuid(),
        full_name: z.string(),
        credential: z.string().nullable(),
        standing: z.string().nullable().describe("Why the trainer may teach no unit today; null when they may"),
      }),
    ),
    cells: z
      .record(
        z.string(),
        z.record(
          z.string(),
          z.strictObject({
            state: z.enum(Object.keys(MATRIX_STATES) as [MatrixState, ...MatrixState[]]),
            reason: z.string().nullable(),
            basis: z.enum(UNIT_BASIS_CODES).nullable(),
            expires_on: date.nullable(),
          }),
        ),
      )
      .describe("cells[trainer id][course id]"),
  })
  .register(responses, { id: "CredentialMatrix" });
export type CredentialMatrixResponse = z.input<typeof credentialMatrixResponse>;

export const validationPlanRequest = validationPlanSchema.strict().register(requests, { id: "ValidationPlanRequest" });

const validationPlanFields = {
  id: z.uuid(),
  course,
  planned_on: date,
  sample_size: z.int().min(1),
  validators: z.array(person),
  sampled: z.boolean(),
  findings_open: z.int().min(0),
  completed_at: instant.nullable(),
};
export const validationPlanResponse = z.strictObject(validationPlanFields).register(responses, { id: "ValidationPlan" });
export type ValidationPlanResponse = z.input<typeof validationPlanResponse>;

export const trainingCredentialRequest = trainingCredentialSchema.strict().register(requests, { id: "TrainingCredentialRequest" });
export const trainerUnitRequest = trainerUnitSchema.strict().register(requests, { id: "TrainerUnitRequest" });
export const trainerActivityRequest = trainerActivitySchema.strict().register(requests, { id: "TrainerActivityRequest" });
/** A course's rating and days; the course is the path's. */
export const courseValidationRequest = courseValidationSchema.omit({ course_id: true }).strict().register(requests, { id: "CourseValidationRequest" });
/** The PUT's body as documented: any of the fields, laid over the rating and last validation recorded (parsePartialInput checks the whole). */
export const courseValidationUpdateRequest = courseValidationSchema
  .omit({ course_id: true })
  .partial()
  .strict()
  .register(requests, { id: "CourseValidationUpdate" });
export const validationFindingRequest = validationFindingSchema.strict().register(requests, { id: "ValidationFindingRequest" });
export const validationCompleteRequest = validationCompleteSchema.strict().register(requests, { id: "ValidationCompleteRequest" });

export const trainerCredentialsResponse = z
  .strictObject({
    trainer: z.strictObject({
      id: z.uuid(),
      full_name: z.string(),
      email: z.string(),
    }),
    credentials: z.array(
      z.strictObject({
        id: z.uuid(),
        credential: z.enum(CREDENTIAL_CHOICES),
        label: z.string(),
        supervisor: person.nullable().describe("The credentialed trainer directing this one (under_direction only)"),
        issued_on: date,
        expires_on: date.nullable(),
        note: z.string().nullable(),
        recorded_at: instant,
      }),
    ),
    units: z.array(
      z.strictObject({
        id: z.uuid(),
        unit_code: z.string(),
        basis: z.enum(UNIT_BASIS_CODES),
        evidence: z.string().nullable(),
        expires_on: date.nullable(),
        recorded_at: instant,
      }),
    ),
    activities: z.array(
      z.strictObject({
        id: z.uuid(),
        kind: z.enum(ACTIVITY_KIND_CODES),
        kind_label: z.string(),
        activity_date: date,
        hours: z.number().positive(),
        description: z.string(),
        evidence: z.string().nullable(),
        evidence_file: z.string().nullable().describe("The evidence file's name, if one was uploaded: GET /api/trainer-activities/{id}/evidence"),
        recorded_at: instant,
        confirmed: z.strictObject({ by: z.string(), at: instant }).nullable().describe("null until an administrator confirms it"),
      }),
    ),
    currency: z
      .strictObject({
        months: z.int(),
        industry_hours: z.number().min(0),
        development_hours: z.number().min(0),
        unconfirmed: z.int().min(0),
      })
      .describe("Confirmed hours of each kind in the last `months` months, and how many activities wait for confirmation"),
    standing: z.string().nullable().describe("Why the trainer may teach no unit today; null when they may"),
  })
  .register(responses, { id: "TrainerCredentials" });
export type TrainerCredentialsResponse = z.input<typeof trainerCredentialsResponse>;

export const courseValidationResponse = z
  .strictObject({
    course,
    risk_rating: z.enum(RISK_RATING_CODES),
    rated: z.boolean().describe("false: never rated (medium, counted from the day the course was added)"),
    last_validated_on: date.nullable(),
    next_due_on: date,
    state: z.enum(Object.keys(VALIDATION_STATES) as [ValidationState, ...ValidationState[]]),
    open_plan: z.strictObject({ id: z.uuid(), planned_on: date }).nullable(),
  })
  .register(responses, { id: "CourseValidation" });
export type CourseValidationResponse = z.input<typeof courseValidationResponse>;

export const validationPlanDetailResponse = z
  .strictObject({
    ...validationPlanFields,
    seed: z.int().nullable().describe("The seed the sample was drawn from; the same seed over the recorded population gives the same items"),
    sampled_at: instant.nullable(),
    population: z.int().min(0).nullable().describe("How many completed assessments (none by a validator) the sample was drawn from"),
    summary: z.string().nullable(),
    samples: z.array(
      z.strictObject({
        id: z.uuid(),
        position: z.int().min(1),
        assessment: z.strictObject({
          id: z.uuid(),
          assessment_type: z.string(),
          status: z.string(),
          assessment_date: date,
          student_name: z.string(),
          assessor: person.nullable(),
        }),
        outcome: z.enum(FINDING_OUTCOME_CODES).nullable(),
        finding: z.string().nullable(),
        action: z.string().nullable(),
        recorded_at: instant.nullable(),
      }),
    ),
  })
  .register(responses, { id: "ValidationPlanDetail" });
export type ValidationPlanDetailResponse = z.input<typeof validationPlanDetailResponse>;
