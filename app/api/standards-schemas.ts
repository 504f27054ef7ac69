import { z } from "zod";
import { validationPlanSchema } from "~/schemas/standards";
import { MATRIX_STATES, UNIT_BASIS_CODES, type MatrixState } from "~/schemas/standards-text";
import { requests, responses } from "./schemas";

/** The /api shapes of trainer credentials and course validation (registered in the OpenAPI document). */

const date = z.iso.date().describe("YYYY-MM-DD");
const course = z.strictObject({ id: z.uuid(), name: z.string(), unit_code: z.string() });
const person = z.strictObject({ id: z.uuid(), full_name: z.string() });

export const credentialMatrixResponse = z
  .strictObject({
    today: date,
    courses: z.array(course),
    trainers: z.array(z.strictObject({ id: z.uuid(), full_name: z.string(), credential: z.string().nullable(), standing: z.string().nullable().describe("Why the trainer may teach no unit today; null when they may") })),
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

export const validationPlanResponse = z
  .strictObject({
    id: z.uuid(),
    course,
    planned_on: date,
    sample_size: z.int().min(1),
    validators: z.array(person),
    sampled: z.boolean(),
    findings_open: z.int().min(0),
    completed_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .register(responses, { id: "ValidationPlan" });
export type ValidationPlanResponse = z.input<typeof validationPlanResponse>;
