import { z } from "zod";
import { aenCheckSchema, bookingSchema, noticeSchema, nsaSchema, partResultSchema, rescheduleSchema } from "~/schemas/hrw";
import { HRW_RULE_NAMES, HRW_STAGES, HRW_STATE_CODES, LICENCE_CLASS_CODES, NAI_PART_CODES, NAI_RESULT_CODES } from "~/schemas/hrw-codes";
import { requests, responses } from "./schemas";

/** The /api shapes of high-risk work licence assessments (registered in the OpenAPI document). */

const date = z.iso.date().describe("YYYY-MM-DD");
const person = z.strictObject({ id: z.uuid(), full_name: z.string() });
const partResult = z.strictObject({
  part: z.enum(NAI_PART_CODES),
  result: z.enum(NAI_RESULT_CODES),
  assessed_on: date,
  recorded_at: z.iso.datetime({ offset: true }),
  accreditation_number: z.string().nullable().describe("The accreditation the result was recorded under; null for a result changed on appeal"),
});

export const hrwBookingRequest = bookingSchema.strict().register(requests, { id: "HrwBooking" });
export const hrwNoticeRequest = noticeSchema.strict().register(requests, { id: "HrwNotice" });
export const hrwPartResultRequest = partResultSchema.strict().register(requests, { id: "HrwPartResult" });
export const hrwNsaRequest = nsaSchema.strict().register(requests, { id: "HrwNsa" });
export const hrwRescheduleRequest = rescheduleSchema.strict().register(requests, { id: "HrwReschedule" });
export const hrwAenRequest = aenCheckSchema.strict().register(requests, { id: "HrwAen" });

export const hrwAenListResponse = z
  .strictObject({
    aens: z.array(z.strictObject({ state: z.enum(HRW_STATE_CODES), aen: z.string(), checked_by: z.string(), checked_at: z.iso.datetime({ offset: true }) })),
  })
  .register(responses, { id: "HrwAenList" });

const ruleRow = z.strictObject({
  id: z.string(),
  state: z.enum(HRW_STATE_CODES),
  rule: z.enum(HRW_RULE_NAMES),
  label: z.string(),
  value: z.string(),
  unit: z.string(),
  source: z.string(),
  secondary: z.boolean().describe("From an RTO's or consultant's copy of the rule: a default to confirm"),
  in_force_from: date.nullable().describe("null: in force before any date the portal records"),
  reason: z.string().nullable(),
  recorded_at: z.iso.datetime({ offset: true }),
  recorded_by: z.string().nullable(),
});
export const hrwRulesResponse = z
  .strictObject({
    today: date,
    rules: z.array(
      z.strictObject({
        state: z.enum(HRW_STATE_CODES),
        rule: z.enum(HRW_RULE_NAMES),
        label: z.string(),
        current: ruleRow.nullable(),
        upcoming: z.array(ruleRow),
        earlier: z.array(ruleRow),
      }),
    ),
  })
  .register(responses, { id: "HrwRules" });

export const hrwCurrencyResponse = z
  .strictObject({
    today: date,
    currency: z.array(
      z.strictObject({
        state: z.enum(HRW_STATE_CODES),
        licence_class: z.enum(LICENCE_CLASS_CODES),
        assessments: z.number().int(),
        hours: z.number(),
        needs: z.strictObject({ assessments: z.number().int().nullable(), hours: z.number().nullable(), years: z.number().int() }),
        current_until: date.nullable().describe("The last day the records keep the assessor current if nothing more is assessed; null: not current"),
        status: z.enum(["current", "lapsing", "lapsed"]).describe("lapsing: within 90 days of current_until"),
      }),
    ),
  })
  .register(responses, { id: "HrwCurrency" });

export const hrwAssessmentResponse = z
  .strictObject({
    id: z.uuid(),
    candidate: person,
    course: z.strictObject({ id: z.uuid(), name: z.string(), unit_code: z.string() }),
    licence_class: z.string(),
    state: z.enum(HRW_STATE_CODES),
    assessment_date: date,
    start_time: z.string().regex(/^\d{2}:\d{2}$/),
    hours: z.number().nullable().describe("Hours booked; counts towards the assessor's currency"),
    location: z.strictObject({ id: z.uuid(), name: z.string(), identifier: z.string() }),
    assessor: person,
    accreditation_number: z.string().nullable().describe("The accreditation the results were recorded under"),
    plant_description: z.string(),
    plant_registration: z.string(),
    notice_due_on: date.nullable().describe("Last day to notify the regulator; null when the state asks for no notice"),
    notice_reference: z.string().nullable().describe("The booked day's notice reference"),
    notices: z
      .array(z.strictObject({ held_on: date, reference: z.string(), sent_on: date }))
      .describe("Every notice given to the regulator, one per assessment day it covers"),
    nsa_number: z.string().nullable(),
    nsa_date: date.nullable(),
    parts: z
      .strictObject({ knowledge: partResult.optional(), calculations: partResult.optional(), practical: partResult.optional() })
      .describe("The latest result of each part"),
    history: z.array(partResult).describe("Every result, oldest first, reassessments included"),
    stage: z.enum(Object.keys(HRW_STAGES) as [keyof typeof HRW_STAGES]),
    application_deadline: date
      .nullable()
      .describe("NSA date + the state's application window (60 days unless its rules say otherwise): the candidate applies for the licence by then"),
  })
  .register(responses, { id: "HrwAssessment" });
export type HrwAssessmentResponse = z.infer<typeof hrwAssessmentResponse>;

export const hrwAssessmentListResponse = z.strictObject({ assessments: z.array(hrwAssessmentResponse) }).register(responses, { id: "HrwAssessmentList" });
