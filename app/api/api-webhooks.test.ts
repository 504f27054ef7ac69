import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as webhooksApi from "~/routes/api+/admin.webhooks";
import { createWebhookEndpoint, getWebhookEndpoint } from "~/models/webhooks.server";
import { webhookEndpointSchema } from "~/schemas/webhooks";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { call, caller, type Caller, type RouteModule } from "../../tests/support/api-calls";

/**
 * Registering a webhook endpoint, by the model and over POST /api/admin/webhooks: a description
 * with a control character is refused at its field with nothing stored, and an event named twice
 * is stored once.
 */

let db: DB;
let cleanup: () => Promise<void>;
let admin: Caller;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await caller(db, "admin");
});
afterAll(async () => cleanup());

const api = webhooksApi as unknown as RouteModule;
const url = "http://127.0.0.1:4916/t";
const stored = async () =>
  Number(
    (
      await db
        .selectFrom("webhook_endpoints")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const storedEvents = async (id: string) => (await db.selectFrom("webhook_endpoints").select("events").where("id", "=", id).executeTakeFirstOrThrow()).events;

describe("a webhook endpoint's description and events", () => {
  it("the model stores each event once and the description as typed", async () => {
    const input = webhookEndpointSchema.parse({ url, description: "Bookings to the CRM", events: ["enrolment.created", "enrolment.created", "invoice.paid"] });
    const { endpoint } = await createWebhookEndpoint(db, input, { actorId: admin.id, policy: { allowPrivate: false, allowLoopbackByName: true } });
    expect(JSON.parse(await storedEvents(endpoint.id))).toEqual(["enrolment.created", "invoice.paid"]);
    expect(await getWebhookEndpoint(db, endpoint.id)).toMatchObject({ description: "Bookings to the CRM", events: ["enrolment.created", "invoice.paid"] });
  });

  it("POST /api/admin/webhooks refuses a control character at description, nothing stored", async () => {
    const before = await stored();
    const response = await call(api, "POST", "/api/admin/webhooks", {
      token: admin.token,
      json: { url, events: ["enrolment.created"], description: "a\u0007b" },
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: Record<string, string> }).errors).toEqual({
      description: "Description must be a single line without control characters",
    });
    expect(await stored()).toBe(before);
  });

  it("POST /api/admin/webhooks stores an event named twice once", async () => {
    const response = await call(api, "POST", "/api/admin/webhooks", {
      token: admin.token,
      json: { url, events: ["enrolment.created", "enrolment.created"], description: "Enrolments" },
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; events: string[] };
    expect(body.events).toEqual(["enrolment.created"]);
    expect(JSON.parse(await storedEvents(body.id))).toEqual(["enrolment.created"]);
  });
});
