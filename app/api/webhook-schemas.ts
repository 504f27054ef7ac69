import { z } from "zod";
import { WEBHOOK_AUDIENCES, WEBHOOK_EVENTS, WEBHOOK_STATES, webhookActionSchema, webhookEndpointSchema } from "~/schemas/webhooks";
import { requests, responses } from "./schemas";

/** The webhooks' /api shapes, for the OpenAPI document. */
export const webhookEndpointRequest = webhookEndpointSchema.register(requests, { id: "WebhookEndpointRegister" });
export const webhookActionRequest = webhookActionSchema.register(requests, { id: "WebhookEndpointAction" });

const endpointFields = {
  id: z.string().uuid(),
  url: z.string(),
  description: z.string(),
  audience: z.enum(WEBHOOK_AUDIENCES).describe("Whose reading rules the payloads follow"),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  is_active: z.boolean(),
  rotating_until: z.string().nullable().describe("Until when a rotated-out secret still signs (both signatures are sent)"),
  created_at: z.string(),
  updated_at: z.string(),
};
export const webhookEndpointResponse = z.object(endpointFields).register(responses, { id: "WebhookEndpoint" });
export const webhookEndpointCreatedResponse = z
  .object({ ...endpointFields, secret: z.string().describe("whsec_…: the signing secret, shown this once") })
  .register(responses, { id: "WebhookEndpointCreated" });
const counts = z.object({ queued: z.number().int(), delivered: z.number().int(), failed: z.number().int(), given_up: z.number().int() });
export const webhookEndpointListResponse = z.array(z.object({ ...endpointFields, counts })).register(responses, { id: "WebhookEndpointList" });
const delivery = z.object({
  id: z.string().describe("The webhook-id every try sends"),
  endpoint_id: z.string().uuid(),
  event_type: z.enum(WEBHOOK_EVENTS),
  state: z.enum(WEBHOOK_STATES),
  attempts: z.number().int(),
  created_at: z.string(),
  next_attempt_at: z.string(),
  last_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  response_status: z.number().int().nullable(),
  response_excerpt: z.string().nullable(),
  last_error: z.string().nullable(),
});
export const webhookEndpointDetailResponse = z
  .object({ endpoint: webhookEndpointResponse, deliveries: z.array(delivery), total: z.number().int(), page: z.number().int(), pages: z.number().int() })
  .register(responses, { id: "WebhookEndpointDetail" });
export const webhookActionResponse = z
  .union([
    z.object({ secret: z.string(), previous_secret_until: z.string() }),
    webhookEndpointResponse,
    z.object({ id: z.string(), state: z.literal("queued") }),
  ])
  .register(responses, { id: "WebhookEndpointActionResult" });
