import crypto from "node:crypto";
import { request as playwrightRequest, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { WEBHOOK_REGISTERED, WEBHOOK_RESENT, WEBHOOK_ROTATED } from "../../app/schemas/webhook-text";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../support/webhook-receiver";
import { e2eDb, e2eServer, insertCourse } from "./e2e-db";
import { DEMO, expect, expectMessage, newClientHeaders, signIn, test, uniqueEmail } from "./fixtures";

/**
 * Webhooks end to end: an administrator registers an endpoint on the page, a learner's
 * enrolment reaches a receiver on this machine (the e2e server sets WEBHOOKS_ALLOW_PRIVATE), which
 * checks every signature with the standardwebhooks package; a failing receiver gets its retry
 * under the same webhook-id and "Send again" delivers it; after "Rotate secret" each delivery
 * carries both secrets' signatures. The same with JavaScript and without.
 */

let receiver: WebhookReceiver;
test.beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
test.afterEach(async () => {
  await receiver.stop();
});

/** A new learner enrols (over the /api, as any client would) in a course of its own: one enrolment.created. */
async function enrolSomeone(): Promise<string> {
  const http = await playwrightRequest.newContext({ baseURL: `http://localhost:${e2eServer().port}`, extraHTTPHeaders: newClientHeaders() });
  try {
    const email = uniqueEmail("hook");
    expect(
      (await http.post("/api/auth/register", { data: { email, full_name: "Hook Learner", password: "Rigging-Kestrel-42", phone: "0400 555 111" } })).status(),
    ).toBe(201);
    const token = (await (await http.post("/api/auth/login", { data: { email, password: "Rigging-Kestrel-42" } })).json()).access_token as string;
    const course = await insertCourse({ prerequisites: [] });
    const enrolled = await http.post("/api/enrollments", { data: { course_id: course.id }, headers: { Authorization: `Bearer ${token}` } });
    expect(enrolled.status()).toBe(201);
    return (await enrolled.json()).id as string;
  } finally {
    await http.dispose();
  }
}

const aboutEnrollment = (enrollmentId: string) => (r: ReceivedWebhook) => JSON.parse(r.body).data?.enrolment?.id === enrollmentId;

async function registerEndpoint(page: Page, js: boolean): Promise<{ id: string; secret: string }> {
  await page.goto("/admin/webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  // a URL that is not a web address is refused at its field
  await page.getByLabel("URL").fill("ftp://files.example.com/in");
  await page.getByRole("button", { name: "Register endpoint" }).click();
  await expect(page.getByRole("alert").first()).toBeVisible();
  await page.getByLabel("URL").fill(receiver.url);
  await page.getByLabel("Description").fill("Journey CRM");
  await expect(page.getByRole("checkbox", { name: "Enrolment created" })).toBeChecked();
  await page.getByRole("button", { name: "Register endpoint" }).click();
  const shown = page.locator('section[aria-labelledby="secret-heading"]');
  await expect(shown).toContainText(WEBHOOK_REGISTERED);
  await expectMessage(page, js, WEBHOOK_REGISTERED);
  const secret = (await shown.locator("code").textContent())!.trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
  await shown.getByRole("link", { name: "Open the endpoint" }).click();
  await expect(page.getByRole("heading", { name: "Webhook endpoint", level: 1 })).toBeVisible();
  const id = new URL(page.url()).pathname.split("/").pop()!;
  return { id, secret };
}

test.describe("webhooks", () => {
  test("an endpoint hears of an enrolment, signed; a failing receiver gets retries under one id and Send again delivers; a rotated secret signs beside the old one", async ({
    page,
    js,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, DEMO.admin.email);
    const endpoint = await registerEndpoint(page, js);
    receiver.secrets = [endpoint.secret];

    // delivered by the runner (it wakes every 5 s) and verified by the third-party verifier
    const first = await enrolSomeone();
    const delivered = await receiver.waitFor(aboutEnrollment(first));
    expect(delivered.status).toBe(200);
    expect(delivered.verifiedBy).toEqual([0]);
    expect(delivered.id).toMatch(/^msg_/);
    expect(JSON.parse(delivered.body)).toMatchObject({ type: "enrolment.created", data: { enrolment: { id: first } } });
    await page.reload();
    const row = (id: string) => page.getByRole("row").filter({ hasText: id });
    await expect(row(delivered.id)).toContainText("Delivered");
    await expect(row(delivered.id)).toContainText("200");

    // the receiver fails: the first try is recorded and retried under the same id
    receiver.failNext = Infinity;
    const second = await enrolSomeone();
    const failedTry = await receiver.waitFor(aboutEnrollment(second));
    expect(failedTry.status).toBe(503);
    await expect
      .poll(async () => (await e2eDb().get<{ state: string }>("select state from webhook_deliveries where id = ?", failedTry.id))?.state)
      .toBe("failed");
    await page.reload();
    await expect(row(failedTry.id)).toContainText("Failed, will retry");
    await expect(row(failedTry.id)).toContainText("busy, try later");
    // the retry falls due (30 s on: the clock is moved for this delivery, not waited for)
    await e2eDb().run("update webhook_deliveries set next_attempt_at = ? where id = ?", new Date().toISOString(), failedTry.id);
    await expect.poll(() => receiver.received.filter((r) => r.id === failedTry.id).length, { timeout: 30_000 }).toBe(2);
    const tries = receiver.received.filter((r) => r.id === failedTry.id);
    expect(tries.map((r) => r.body)).toEqual([failedTry.body, failedTry.body]);

    // the receiver is back: Send again delivers the same event under the same id, at once
    receiver.failNext = 0;
    await page.reload();
    await row(failedTry.id)
      .getByRole("button", { name: /Send again/ })
      .click();
    await expectMessage(page, js, WEBHOOK_RESENT);
    await expect.poll(() => receiver.actedOn.get(failedTry.id) ?? 0, { timeout: 30_000 }).toBe(1);
    await page.reload();
    await expect(row(failedTry.id)).toContainText("Delivered");
    expect(receiver.received.filter((r) => r.id === failedTry.id).map((r) => r.status)).toEqual([503, 503, 200]);

    // rotation: the new secret is shown once; for 24 hours each delivery carries both signatures
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = page.locator('section[aria-labelledby="rotated-heading"]');
    await expect(rotated).toContainText(WEBHOOK_ROTATED);
    const newSecret = (await rotated.locator("code").textContent())!.trim();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    receiver.secrets = [newSecret, endpoint.secret];
    const third = await enrolSomeone();
    const overlap = await receiver.waitFor(aboutEnrollment(third));
    expect(overlap.status).toBe(200);
    expect(overlap.signature.split(" ")).toHaveLength(2);
    expect(overlap.verifiedBy).toEqual([0, 1]);
    const headers = { "webhook-id": overlap.id, "webhook-timestamp": overlap.timestamp, "webhook-signature": overlap.signature };
    expect(() => new Webhook(newSecret).verify(overlap.body, headers)).not.toThrow();
    expect(() => new Webhook(`whsec_${crypto.randomBytes(32).toString("base64")}`).verify(overlap.body, headers)).toThrow();

    expect(receiver.problems).toEqual([]);
    // each event acted on once
    expect([first, second, third].map((e) => receiver.received.filter(aboutEnrollment(e)).filter((r) => r.status === 200).length)).toEqual([1, 1, 1]);

    // off: no more deliveries are queued for it
    await page.getByRole("button", { name: "Turn off" }).click();
    await expectMessage(page, js, "Endpoint turned off");
  });
});
