import { z } from "zod";
import { EQUIVALENCES, RECOGNITION_KINDS, RECOGNITION_STATUSES } from "#db/schema-recognition";
import { recognitionApplyInput, recognitionAssignInput, recognitionAuthenticateInput, recognitionDecideInput } from "~/schemas/recognition";
import { errorResponse, requests, responses } from "./schemas";

/** Credit transfer and RPL over /api: the pages' schemas made strict, and one application's answer. */

export const recognitionApplyRequest = recognitionApplyInput.strict().register(requests, { id: "RecognitionApply" });
export const recognitionAuthenticateRequest = recognitionAuthenticateInput.strict().register(requests, { id: "RecognitionAuthenticate" });
export const recognitionAssignRequest = recognitionAssignInput.strict().register(requests, { id: "RecognitionAssign" });
export const recognitionDecideRequest = recognitionDecideInput.strict().register(requests, { id: "RecognitionDecide" });

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe("YYYY-MM-DD, a day on the organisation's calendar");
const person = z.strictObject({ id: z.uuid(), full_name: z.string() });

export const recognitionResponse = z
  .strictObject({
    id: z.uuid(),
    kind: z.enum(RECOGNITION_KINDS),
    status: z.enum(RECOGNITION_STATUSES),
    title: z.string(),
    enrollment_id: z.uuid(),
    student: person,
    course: z.strictObject({
      id: z.uuid(),
      name: z.string(),
      unit_code: z.string(),
      licence_class: z.string().nullable().describe("A high-risk work licence class: such a unit is refused"),
    }),
    statement: z.string(),
    applied_on: day,
    authentication: z
      .strictObject({ issuing_rto_code: z.string(), document_number: z.string(), checked_how: z.string(), checked_on: day, checked_by: z.string().nullable() })
      .nullable()
      .describe("How a credit transfer's document was authenticated, once recorded"),
    equivalence: z.strictObject({ kind: z.enum(EQUIVALENCES), held_unit_code: z.string().nullable(), mapping: z.string().nullable() }).nullable(),
    assessor: person.nullable().describe("An RPL's credentialed assessor"),
    outcome_code: z.enum(["51", "52", "60"]).nullable().describe("The national outcome: 60 credit transfer, 51 RPL granted, 52 RPL not granted"),
    decided_on: day.nullable(),
    decided_by: z.string().nullable(),
    reasons: z.string().nullable(),
    fee_invoice_id: z.uuid().nullable().describe("The RPL fee's invoice"),
    credit_note_id: z.uuid().nullable().describe("A credit transfer's credit against the enrolment's invoice"),
  })
  .register(responses, { id: "Recognition" });
export type RecognitionResponse = z.input<typeof recognitionResponse>;

/** One application with every decision on it, oldest first (an upheld appeal sets one aside and the application is decided again). */
export const recognitionDetailResponse = recognitionResponse
  .extend({
    decisions: z.array(
      z.strictObject({
        id: z.uuid(),
        status: z.enum(RECOGNITION_STATUSES).exclude(["applied"]),
        outcome_code: z.enum(["51", "52", "60"]).nullable(),
        reasons: z.string(),
        decided_on: day,
        decided_by: z.string().nullable().describe("Null for the refusal of a licence unit on application: the portal's rule, nobody's judgement"),
        assessor: z.string().nullable(),
        overturned_at: z.string().nullable().describe("When an upheld appeal set it aside"),
        overturned_by_appeal: z.string().nullable().describe("That appeal's reference"),
      }),
    ),
  })
  .register(responses, { id: "RecognitionDetail" });
export type RecognitionDetailResponse = z.input<typeof recognitionDetailResponse>;

/**
 * Applying refused: 409 with the reason as `detail`. For a high-risk work licence unit the refused
 * application is kept on the register (its reason mailed and audited), and `id` names it.
 */
export const recognitionApplyConflictResponse = errorResponse
  .extend({
    id: z.uuid().optional().describe("The refused application, kept on the register (GET /api/recognition/{id}): present when a licence unit is refused"),
  })
  .register(responses, { id: "RecognitionApplyConflict" });
export type RecognitionApplyConflictResponse = z.input<typeof recognitionApplyConflictResponse>;
