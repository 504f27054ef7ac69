import { z } from "zod";
import { RECOGNITION_SESSION_KINDS } from "#db/schema-recognition";
import { refereeRequestInput, sessionBookInput, sessionCancelInput, sessionRescheduleInput } from "~/schemas/recognition-rpl";
import { requests, responses } from "./schemas";

/** An RPL's third-party reports and competency sessions over /api: the pages' schemas made strict, and their answers. */

export const refereeRequestRequest = refereeRequestInput.strict().register(requests, { id: "RecognitionRefereeAsk" });
export const sessionBookRequest = sessionBookInput.strict().register(requests, { id: "RecognitionSessionBook" });
export const sessionRescheduleRequest = sessionRescheduleInput.strict().register(requests, { id: "RecognitionSessionReschedule" });
export const sessionCancelRequest = sessionCancelInput.strict().register(requests, { id: "RecognitionSessionCancel" });

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe("YYYY-MM-DD, a day on the organisation's calendar");
const clock = z
  .string()
  .regex(/^\d{2}:\d{2}$/)
  .describe("HH:MM on the organisation's clock");

export const refereeRequestResponse = z
  .strictObject({
    id: z.uuid(),
    application_id: z.uuid(),
    referee_name: z.string(),
    referee_email: z.string().nullable().describe("Staff only; null for the learner"),
    relationship: z.string().nullable(),
    requested_at: z.string().describe("ISO 8601 instant"),
    expires_at: z.string().describe("When the mailed link stops working"),
    submitted_at: z.string().nullable(),
    state: z.enum(["waiting", "received", "expired"]),
    report: z
      .strictObject({
        name: z.string(),
        role: z.string(),
        organisation: z.string(),
        phone: z.string(),
        known_how: z.string(),
        work_witnessed: z.string(),
        worked_from: day,
        worked_to: day,
      })
      .nullable()
      .describe("What the referee wrote: for the assessor and administrators once received; always null for the learner"),
  })
  .register(responses, { id: "RecognitionRefereeRequest" });
export type RefereeRequestResponse = z.input<typeof refereeRequestResponse>;

export const sessionResponse = z
  .strictObject({
    id: z.uuid(),
    application_id: z.uuid(),
    kind: z.enum(RECOGNITION_SESSION_KINDS),
    title: z.string(),
    assessor: z.strictObject({ id: z.uuid(), full_name: z.string() }),
    session_date: day,
    starts_at: clock,
    ends_at: z
      .string()
      .regex(/^\d{2}:\d{2}$/)
      .describe("HH:MM; 24:00 for a session ending at midnight"),
    location: z.strictObject({ id: z.uuid(), name: z.string() }),
    notes: z.string().nullable(),
    booked_at: z.string(),
    cancelled_at: z.string().nullable(),
    cancel_reason: z.string().nullable(),
  })
  .register(responses, { id: "RecognitionSession" });
export type SessionResponse = z.input<typeof sessionResponse>;
