import { z } from "zod";

/**
 * Webhooks: the events other systems may hear of, the endpoint form shared by /admin/webhooks
 * and POST /api/admin/webhooks, and the words the pages show. Zod and plain data only, so the
 * pages, the /api and the OpenAPI document list the same events.
 */
export const WEBHOOK_EVENTS = [
  "enrolment.created",
  "enrolment.changed",
  "result.recorded",
  "certificate.issued",
  "certificate.revoked",
  "booking.made",
  "invoice.issued",
  "invoice.paid",
  "complaint.lodged",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  "enrolment.created": "Enrolment created",
  "enrolment.changed": "Enrolment changed",
  "result.recorded": "Result recorded",
  "certificate.issued": "Certificate issued",
  "certificate.revoked": "Certificate revoked",
  "booking.made": "Group booking made",
  "invoice.issued": "Invoice issued",
  "invoice.paid": "Invoice paid",
  "complaint.lodged": "Complaint lodged",
};

/**
 * Whose reading rules an endpoint's payloads follow. A trainer-audience endpoint hears only of
 * what a trainer may read (no invoices, no complaints), and each person in a payload carries
 * only the fields a trainer reads (models/personal-data.server.ts decides).
 */
export const WEBHOOK_AUDIENCES = ["admin", "trainer"] as const;
export type WebhookAudience = (typeof WEBHOOK_AUDIENCES)[number];
export const WEBHOOK_AUDIENCE_LABELS: Record<WebhookAudience, string> = { admin: "Administrator (everything the /api shows an administrator)", trainer: "Trainer (what a trainer may read)" };
export const TRAINER_EVENTS: readonly WebhookEvent[] = ["enrolment.created", "enrolment.changed", "result.recorded", "certificate.issued", "certificate.revoked", "booking.made"];

export const WEBHOOK_STATES = ["queued", "delivered", "failed", "given_up"] as const;
export const WEBHOOK_STATE_LABELS: Record<(typeof WEBHOOK_STATES)[number], string> = { queued: "Queued", delivered: "Delivered", failed: "Failed, will retry", given_up: "Given up" };

const eventList = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.enum(WEBHOOK_EVENTS, { message: "Unknown event" }), { message: "Choose at least one event" }).min(1, "Choose at least one event").max(WEBHOOK_EVENTS.length),
);

/** Registering an endpoint (the form and POST /api/admin/webhooks). */
export const webhookEndpointSchema = z
  .object({
    url: z.string({ message: "Enter the endpoint's URL" }).trim().min(1, "Enter the endpoint's URL").max(2000, "The URL is too long"),
    description: z.string().trim().max(200, "Keep the description under 200 characters").default(""),
    audience: z.enum(WEBHOOK_AUDIENCES, { message: "Choose whose reading rules apply" }).default("admin"),
    events: eventList,
  })
  .superRefine((value, ctx) => {
    if (value.audience !== "trainer") return;
    const refused = value.events.filter((e) => !TRAINER_EVENTS.includes(e));
    if (refused.length) ctx.addIssue({ code: "custom", path: ["events"], message: `A trainer endpoint cannot hear of ${refused.map((e) => WEBHOOK_EVENT_LABELS[e].toLowerCase()).join(", ")}` });
  });
export type WebhookEndpointInput = z.infer<typeof webhookEndpointSchema>;

/** The endpoint page's buttons: rotate the secret, send a delivery again, turn it off or on. */
export const webhookActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("rotate") }),
  z.object({ intent: z.literal("resend"), delivery: z.string({ message: "Unknown delivery" }).min(1).max(64) }),
  z.object({ intent: z.literal("toggle") }),
], { message: "Unknown action" });

export const WEBHOOK_REGISTERED = "Endpoint registered. Copy its signing secret now.";
export const WEBHOOK_ROTATED = "Secret rotated. Both secrets sign deliveries for the next 24 hours.";
export const WEBHOOK_RESENT = "Delivery queued again under the same id.";
