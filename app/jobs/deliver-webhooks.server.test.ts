import http from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createEnrollment } from "~/models/enrollment.server";
import { resolveWebhookTarget, type AddressPolicy } from "~/models/webhook-address.server";
import { claimDueWebhooks, createWebhookEndpoint, listWebhookDeliveries, resendWebhookDelivery, rotateWebhookSecret } from "~/models/webhooks.server";
import { webhookEndpointSchema } from "~/schemas/webhooks";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { createTestDb, TEST_DIALECT, useAsAppDb } from "../../tests/support/test-db";
import { deliverDueWebhooks } from "./deliver-webhooks.server";

/**
 * Webhooks delivered to a local receiver that checks every signature with the standardwebhooks
 * package (a verifier the portal did not write), fails when told to, and keeps the ids it has
 * acted on, as a receiver that dedupes would.
 */

const PORT = TEST_DIALECT === "postgres" ? 8406 : 8405;
const DEV: AddressPolicy = { allowPrivate: false, allowLoopbackByName: true };
const PUBLIC_LOOKUP = async () => [{ address: "93.184.216.34", family: 4 }];

interface Received {
  id: string;
  body: string;
  signature: string;
}
let server: http.Server;
let received: Received[] = [];
let failNext = 0;
let secrets: string[] = [];
/** ids acted on: a receiver that dedupes by webhook-id */
const actedOn = new Set<string>();
const verifyFailures: string[] = [];

let db: DB;
let cleanup: () => Promise<void>;
let admin: { id: string };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      const headers = {
        "webhook-id": String(req.headers["webhook-id"]),
        "webhook-timestamp": String(req.headers["webhook-timestamp"]),
        "webhook-signature": String(req.headers["webhook-signature"]),
      };
      received.push({ id: headers["webhook-id"], body, signature: headers["webhook-signature"] });
      // every secret the endpoint has handed out must verify on its own
      for (const secret of secrets) {
        try {
          new Webhook(secret).verify(body, headers);
        } catch (error) {
          verifyFailures.push(`${headers["webhook-id"]}: ${String(error)}`);
        }
      }
      if (failNext > 0) {
        failNext -= 1;
        res.writeHead(503).end("busy, try later");
        return;
      }
      actedOn.add(headers["webhook-id"]);
      res.writeHead(200, { "content-type": "text/plain" }).end("ok thanks");
    });
  });
  await new Promise<void>((r) => server.listen(PORT, "127.0.0.1", r));
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await makeUser(db, { role: "admin" });
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await cleanup();
});
beforeEach(() => {
  received = [];
  failNext = 0;
});

async function endpoint(events: string[], audience: "admin" | "trainer" = "admin") {
  const input = webhookEndpointSchema.parse({ url: `http://127.0.0.1:${PORT}/hook`, events, audience });
  const made = await createWebhookEndpoint(db, input, { actorId: admin.id, policy: DEV });
  secrets = [made.secret];
  return made;
}

async function enrol() {
  const student = await makeUser(db, { role: "student" });
  const course = await makeCourse(db);
  const e = await createEnrollment(db, { studentId: student.id, courseId: course.id });
  return { student, course, enrollmentId: (e as { id: string }).id };
}

const deliver = (now: Date, worker = "test") => deliverDueWebhooks(db, { worker, now: () => now, policy: DEV });

describe("webhook delivery", () => {
  it("queues an enrolment in its transaction and delivers it signed as Standard Webhooks asks", async () => {
    const { endpoint: ep } = await endpoint(["enrolment.created"]);
    const { enrollmentId, student } = await enrol();
    const result = await deliver(new Date());
    expect(result.delivered).toBe(1);
    expect(received).toHaveLength(1);
    expect(verifyFailures).toEqual([]);
    const payload = JSON.parse(received[0]!.body);
    expect(payload.type).toBe("enrolment.created");
    expect(typeof payload.timestamp).toBe("string");
    expect(payload.data.enrolment.id).toBe(enrollmentId);
    expect(payload.data.student.id).toBe(student.id);
    const listed = await listWebhookDeliveries(db, ep.id);
    expect(listed.deliveries[0]).toMatchObject({ state: "delivered", attempts: 1, response_status: 200, response_excerpt: "ok thanks" });
    await db.updateTable("webhook_endpoints").set({ is_active: 0 }).execute();
  });

  it("retries a failing receiver with the same id, backing off, until it answers", async () => {
    const { endpoint: ep } = await endpoint(["enrolment.created"]);
    await enrol();
    failNext = 2;
    let now = new Date();
    expect((await deliver(now)).failed).toBe(1);
    // not due again before its pause
    expect((await deliver(new Date(now.getTime() + 10_000))).failed).toBe(0);
    now = new Date(now.getTime() + 31_000);
    expect((await deliver(now)).failed).toBe(1);
    now = new Date(now.getTime() + 121_000);
    expect((await deliver(now)).delivered).toBe(1);
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.id)).size).toBe(1);
    expect(verifyFailures).toEqual([]);
    const [d] = (await listWebhookDeliveries(db, ep.id)).deliveries;
    expect(d).toMatchObject({ state: "delivered", attempts: 3 });
    await db.updateTable("webhook_endpoints").set({ is_active: 0 }).execute();
  });

  it("loses nothing when a worker dies mid-delivery: its lease lapses and another sends it once", async () => {
    await endpoint(["enrolment.created"]);
    await enrol();
    await enrol();
    const now = new Date();
    // a worker claims both and dies before sending or recording anything
    const claimed = await claimDueWebhooks(db, { worker: "dead", now });
    expect(claimed).toHaveLength(2);
    expect((await deliver(new Date(now.getTime() + 30_000), "alive")).delivered).toBe(0);
    const after = new Date(now.getTime() + 61_000);
    expect((await deliver(after, "alive")).delivered).toBe(2);
    expect((await deliver(new Date(after.getTime() + 61_000), "alive")).delivered).toBe(0);
    expect(received.map((r) => r.id).sort()).toEqual(claimed.map((c) => c.id).sort());
    for (const c of claimed) expect(actedOn.has(c.id)).toBe(true);
    await db.updateTable("webhook_endpoints").set({ is_active: 0 }).execute();
  });

  it("gives up a day after queueing, lists it, and sends it again under the same id", async () => {
    const { endpoint: ep } = await endpoint(["enrolment.created"]);
    await enrol();
    failNext = 1000;
    let now = new Date();
    let last = await deliver(now);
    for (let i = 0; i < 40 && last.givenUp === 0; i++) {
      now = new Date(now.getTime() + 8 * 3600_000 + 1000);
      last = await deliver(now);
    }
    expect(last.givenUp).toBe(1);
    const [d] = (await listWebhookDeliveries(db, ep.id)).deliveries;
    expect(d!.state).toBe("given_up");
    expect(d!.response_status).toBe(503);
    failNext = 0;
    received = [];
    await resendWebhookDelivery(db, { endpointId: ep.id, deliveryId: d!.id, now });
    expect((await deliver(now)).delivered).toBe(1);
    expect(received[0]!.id).toBe(d!.id);
    await db.updateTable("webhook_endpoints").set({ is_active: 0 }).execute();
  });

  it("signs with both secrets for a day after a rotation", async () => {
    const { endpoint: ep, secret: old } = await endpoint(["enrolment.created"]);
    const now = new Date();
    const { secret } = await rotateWebhookSecret(db, ep.id, now);
    secrets = [old, secret];
    await enrol();
    await deliver(new Date());
    expect(received[0]!.signature.split(" ")).toHaveLength(2);
    expect(verifyFailures).toEqual([]);
    // a day later only the new one signs
    secrets = [secret];
    received = [];
    await enrol();
    await deliver(new Date(now.getTime() + 24 * 3600_000 + 1000));
    expect(received[0]!.signature.split(" ")).toHaveLength(1);
    expect(verifyFailures).toEqual([]);
    await db.updateTable("webhook_endpoints").set({ is_active: 0 }).execute();
  });

  it("gives a trainer endpoint no event and no field a trainer could not read", async () => {
    expect(webhookEndpointSchema.safeParse({ url: "https://crm.example.com/h", audience: "trainer", events: ["invoice.paid"] }).success).toBe(false);
    await endpoint(["enrolment.created"], "trainer");
    await enrol();
    await deliver(new Date());
    const payload = JSON.parse(received[0]!.body);
    expect(Object.keys(payload.data.student).sort()).toEqual(["email", "full_name", "id", "phone", "student_number"]);
    expect(JSON.stringify(payload)).not.toMatch(/usi|date_of_birth|address/);
    await db.updateTable("webhook_endpoints").set({ is_active: 0 }).execute();
  });
});

describe("where a webhook may go", () => {
  const to = (address: string) => async () => [{ address, family: address.includes(":") ? 6 : 4 }];

  it("refuses a name resolving to 127.0.0.1 or 169.254.169.254, also while developing", async () => {
    await expect(resolveWebhookTarget("https://rebind.example/hook", { policy: DEV, lookup: to("127.0.0.1") })).rejects.toThrow(
      /private, loopback or link-local/,
    );
    await expect(resolveWebhookTarget("https://metadata.example/hook", { policy: DEV, lookup: to("169.254.169.254") })).rejects.toThrow(
      /private, loopback or link-local/,
    );
    await expect(resolveWebhookTarget("https://v6.example/hook", { policy: DEV, lookup: to("::ffff:10.0.0.1") })).rejects.toThrow();
    await expect(resolveWebhookTarget("https://v6.example/hook", { policy: DEV, lookup: to("::ffff:a9fe:a9fe") })).rejects.toThrow();
    // a public IPv6 address is still one
    await expect(resolveWebhookTarget("https://v6.example/hook", { policy: DEV, lookup: to("2606:2800:220:1:248:1893:25c8:1946") })).resolves.toBeTruthy();
    await expect(resolveWebhookTarget("https://ok.example/hook", { policy: DEV, lookup: PUBLIC_LOOKUP })).resolves.toMatchObject({ address: "93.184.216.34" });
  });

  it("refuses private, link-local, unique-local and CGNAT addresses and plain http at registration", async () => {
    for (const url of [
      "https://169.254.169.254/latest",
      "https://10.1.2.3/h",
      "https://192.168.1.1/h",
      "https://100.64.0.1/h",
      "https://[fd00::1]/h",
      "https://[fe80::1]/h",
      // an IPv4 address inside an IPv6 one: mapped (as a URL writes it), compatible, 6to4, Teredo
      "https://[::ffff:169.254.169.254]/h",
      "https://[::a9fe:a9fe]/h",
      "https://[2002:a9fe:a9fe::1]/h",
      "https://[2001:0:a9fe:a9fe::1]/h",
      "http://crm.example.com/h",
    ]) {
      await expect(
        createWebhookEndpoint(db, webhookEndpointSchema.parse({ url, events: ["invoice.paid"] }), { actorId: admin.id, policy: DEV, lookup: PUBLIC_LOOKUP }),
      ).rejects.toThrow();
    }
    const prod: AddressPolicy = { allowPrivate: false, allowLoopbackByName: false };
    await expect(resolveWebhookTarget("http://127.0.0.1:9/h", { policy: prod })).rejects.toThrow(/development/);
    // WEBHOOKS_ALLOW_PRIVATE lets them through
    await expect(
      resolveWebhookTarget("https://internal.example/h", { policy: { allowPrivate: true, allowLoopbackByName: false }, lookup: to("10.0.0.5") }),
    ).resolves.toBeTruthy();
  });

  it("checks again at delivery: a name that now resolves inward is not posted to", async () => {
    const input = webhookEndpointSchema.parse({ url: `http://rebind.example:${PORT}/hook`, events: ["enrolment.created"] });
    // registered while it resolved to a public address (https is required; the check is skipped here to reach delivery)
    const { endpoint: ep } = await createWebhookEndpoint(
      db,
      { ...input, url: `https://rebind.example:${PORT}/hook` },
      { actorId: admin.id, policy: DEV, lookup: PUBLIC_LOOKUP },
    );
    await enrol();
    const result = await deliverDueWebhooks(db, { worker: "w", policy: DEV, lookup: to("127.0.0.1") });
    expect(result.failed).toBe(1);
    expect(received).toHaveLength(0);
    const [d] = (await listWebhookDeliveries(db, ep.id)).deliveries;
    expect(d!.last_error).toMatch(/resolves to a private/);
  });
});
