import { type ApiOperation, BODY_FAILURES, err, FORBIDDEN, UNAUTHENTICATED } from "../operation";
import {
  webhookActionRequest,
  webhookActionResponse,
  webhookEndpointCreatedResponse,
  webhookEndpointDetailResponse,
  webhookEndpointListResponse,
  webhookEndpointRequest,
} from "../webhook-schemas";
import { DELIVERIES_PAGE_SIZE, GIVE_UP_AFTER_SECONDS, RETRY_SECONDS } from "~/models/webhooks.server";
import { WEBHOOK_EVENTS } from "~/schemas/webhooks";

const SIGNED =
  "Each delivery is a POST of `{type, timestamp, data}` signed as the Standard Webhooks specification says: `webhook-id` (the same on every try), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256>`; two, space-separated, for 24 hours after a rotation).";

/** How the OpenAPI document describes the webhooks' calls. */
export const webhookOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/webhooks",
    operationId: "listWebhookEndpoints",
    summary: "Webhook endpoints",
    description: `Administrators. Every endpoint, newest first, with its deliveries counted by state. Events: ${WEBHOOK_EVENTS.join(", ")}. ${SIGNED}`,
    tags: ["webhooks"],
    access: "required",
    responses: { 200: { description: "The endpoints", schema: webhookEndpointListResponse }, 401: UNAUTHENTICATED, 403: FORBIDDEN },
  },
  {
    method: "post",
    path: "/api/admin/webhooks",
    operationId: "registerWebhookEndpoint",
    summary: "Register a webhook endpoint",
    description:
      "Administrators. The URL must be https to a public address (loopback named in the URL only outside production; private, link-local and reserved addresses, also after resolving the name, refused unless WEBHOOKS_ALLOW_PRIVATE=true). A trainer-audience endpoint may choose only the events a trainer may read. The answer carries the signing secret, shown this once.",
    tags: ["webhooks"],
    access: "required",
    body: webhookEndpointRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      201: { description: "The endpoint and its secret", schema: webhookEndpointCreatedResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      422: err("An invalid or refused URL, or events; `errors` names each field"),
    },
  },
  {
    method: "get",
    path: "/api/admin/webhooks/{id}",
    operationId: "getWebhookEndpoint",
    summary: "A webhook endpoint and its deliveries",
    description: `Administrators. ${DELIVERIES_PAGE_SIZE} deliveries per page (\`page\`), newest first, with state, tries, the receiver's status and the first characters of its answer. A failed try is retried after ${RETRY_SECONDS.map((s) => `${s} s`).join(", ")} (then every ${RETRY_SECONDS[RETRY_SECONDS.length - 1]! / 3600} hours) and given up ${GIVE_UP_AFTER_SECONDS / 3600} hours after it was queued.`,
    tags: ["webhooks"],
    access: "required",
    responses: {
      200: { description: "The endpoint and one page of deliveries", schema: webhookEndpointDetailResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No endpoint has this id"),
    },
  },
  {
    method: "post",
    path: "/api/admin/webhooks/{id}",
    operationId: "changeWebhookEndpoint",
    summary: "Rotate a secret, send a delivery again, or turn an endpoint off or on",
    description:
      'Administrators. `{intent: "rotate"}` answers the new secret (the old one keeps signing for 24 hours); `{intent: "resend", delivery}` queues that delivery for another try under its id (202); `{intent: "toggle"}` answers the endpoint as it now is.',
    tags: ["webhooks"],
    access: "required",
    body: webhookActionRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: { description: "The new secret, or the endpoint", schema: webhookActionResponse },
      202: { description: "The delivery queued again", schema: webhookActionResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No endpoint or delivery has this id"),
      409: err("The delivery is being sent right now"),
      422: err("Unknown intent"),
    },
  },
];
