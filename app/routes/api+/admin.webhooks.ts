import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { createWebhookEndpoint, listWebhookEndpoints } from "~/models/webhooks.server";
import { webhookEndpointSchema } from "~/schemas/webhooks";

/**
 * GET /api/admin/webhooks → the endpoints, each with its deliveries' counts (administrators).
 * POST /api/admin/webhooks {url, description?, audience?, events} → 201 the endpoint and its
 * signing secret, shown this once.
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    return apiJson(await listWebhookEndpoints(getDb()), { headers: { "Cache-Control": "no-store" } });
  },
  POST: async ({ request }) => {
    const admin = await requireApiUser(request, "admin");
    const input = parseInput(webhookEndpointSchema, await readJsonBody(request));
    const made = await createWebhookEndpoint(getDb(), input, { actorId: admin.id });
    return apiJson({ ...made.endpoint, secret: made.secret }, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
