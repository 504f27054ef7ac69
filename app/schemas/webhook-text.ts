/**
 * Webhooks' plain words and lists: the events, audiences, delivery states and messages the pages
 * show. No zod here, so a page's component can read them without shipping the schemas
 * (app/schemas/webhooks.ts holds the forms' schemas over these lists).
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
export const WEBHOOK_AUDIENCE_LABELS: Record<WebhookAudience, string> = {
  admin: "Administrator (everything the /api shows an administrator)",
  trainer: "Trainer (what a trainer may read)",
};
export const TRAINER_EVENTS: readonly WebhookEvent[] = [
  "enrolment.created",
  "enrolment.changed",
  "result.recorded",
  "certificate.issued",
  "certificate.revoked",
  "booking.made",
];

export const WEBHOOK_STATES = ["queued", "delivered", "failed", "given_up"] as const;
export const WEBHOOK_STATE_LABELS: Record<(typeof WEBHOOK_STATES)[number], string> = {
  queued: "Queued",
  delivered: "Delivered",
  failed: "Failed, will retry",
  given_up: "Given up",
};

export const WEBHOOK_REGISTERED = "Endpoint registered. Copy its signing secret now.";
export const WEBHOOK_ROTATED = "Secret rotated. Both secrets sign deliveries for the next 24 hours.";
export const WEBHOOK_RESENT = "Delivery queued again under the same id.";
