import { z } from "zod";
import { cleanText } from "./fields";

/**
 * Webhooks: the events other systems may hear of, the endpoint form shared by /admin/webhooks
 * and POST /api/admin/webhooks, and the words the pages show. Zod and plain data only, so the
 * pages, the /api and the OpenAPI document list the same events.
 */
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_LABELS, WEBHOOK_AUDIENCES, TRAINER_EVENTS } from "./webhook-text";

export {
  WEBHOOK_EVENTS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_AUDIENCES,
  WEBHOOK_AUDIENCE_LABELS,
  TRAINER_EVENTS,
  WEBHOOK_STATES,
  WEBHOOK_STATE_LABELS,
  WEBHOOK_REGISTERED,
  WEBHOOK_ROTATED,
  WEBHOOK_RESENT,
} from "./webhook-text";
export type { WebhookAudience, WebhookEvent } from "./webhook-text";

/** An event named twice is heard once: each is kept once, in the order first named. */
const eventList = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? [...new Set(v)] : [v]),
  z
    .array(z.enum(WEBHOOK_EVENTS, { message: "Unknown event" }), { message: "Choose at least one event" })
    .min(1, "Choose at least one event")
    .max(WEBHOOK_EVENTS.length),
);

/** Registering an endpoint (the form and POST /api/admin/webhooks). */
export const webhookEndpointSchema = z
  .object({
    url: cleanText("URL", { typeMessage: "Enter the endpoint's URL" }).trim().min(1, "Enter the endpoint's URL").max(2000, "The URL is too long"),
    description: cleanText("Description").trim().max(200, "Keep the description under 200 characters").default(""),
    audience: z.enum(WEBHOOK_AUDIENCES, { message: "Choose whose reading rules apply" }).default("admin"),
    events: eventList,
  })
  .superRefine((value, ctx) => {
    if (value.audience !== "trainer") return;
    const refused = value.events.filter((e) => !TRAINER_EVENTS.includes(e));
    if (refused.length)
      ctx.addIssue({
        code: "custom",
        path: ["events"],
        message: `A trainer endpoint cannot hear of ${refused.map((e) => WEBHOOK_EVENT_LABELS[e].toLowerCase()).join(", ")}`,
      });
  });
export type WebhookEndpointInput = z.infer<typeof webhookEndpointSchema>;

/** The endpoint page's buttons: rotate the secret, send a delivery again, turn it off or on. */
export const webhookActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("rotate") }),
    z.object({ intent: z.literal("resend"), delivery: z.string({ message: "Unknown delivery" }).min(1).max(64) }),
    z.object({ intent: z.literal("toggle") }),
  ],
  { message: "Unknown action" },
);

/**
 * What an enrolment event shows of the enrolment: its columns, read by the event's payload and by
 * the one way an enrolment is changed (which tells receivers when one of them moves).
 */
export const ENROLLMENT_PAYLOAD_COLUMNS = [
  "id",
  "student_id",
  "course_id",
  "class_id",
  "group_booking_id",
  "status",
  "progress_percentage",
  "enrollment_date",
  "completion_date",
  "updated_at",
] as const;
