import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, queryObject, readJsonBody } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { deliverWebhooksNow } from "~/jobs/runner.server";
import { getWebhookEndpoint, listWebhookDeliveries, resendWebhookDelivery, rotateWebhookSecret, toggleWebhookEndpoint } from "~/models/webhooks.server";
import { webhookActionSchema } from "~/schemas/webhooks";

/**
 * GET /api/admin/webhooks/{id}?page= → the endpoint and one page of its deliveries, newest first.
 * POST /api/admin/webhooks/{id} {intent: "rotate"} → the new secret (the old one signs for 24
 * hours more); {intent: "resend", delivery} → the delivery sent again under its id;
 * {intent: "toggle"} → the endpoint turned off or on. Administrators; the same form as the page.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiUser(request, "admin");
    const db = getDb();
    const endpoint = await getWebhookEndpoint(db, pathId(params, "Webhook endpoint"));
    const page = Number(queryObject(request).page ?? 1) || 1;
    return apiJson({ endpoint, ...(await listWebhookDeliveries(db, endpoint.id, page)) }, { headers: { "Cache-Control": "no-store" } });
  },
  POST: async ({ request, params }) => {
    await requireApiUser(request, "admin");
    const db = getDb();
    const id = pathId(params, "Webhook endpoint");
    const input = parseInput(webhookActionSchema, await readJsonBody(request));
    if (input.intent === "rotate") {
      const rotated = await rotateWebhookSecret(db, id);
      return apiJson({ secret: rotated.secret, previous_secret_until: rotated.previous_until }, { headers: { "Cache-Control": "no-store" } });
    }
    if (input.intent === "toggle") return apiJson(await toggleWebhookEndpoint(db, id));
    await resendWebhookDelivery(db, { endpointId: id, deliveryId: input.delivery });
    deliverWebhooksNow([input.delivery]);
    return apiJson({ id: input.delivery, state: "queued" }, 202);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
