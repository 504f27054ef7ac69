import type { Page } from "@playwright/test";
import { FORM_ALREADY_SENT, FORM_TOKEN_FIELD, FORM_TOKEN_MISSING } from "../../app/utils/form-token";
import { e2eDb, insertClass, insertCourse } from "./e2e-db";
import { formTokenOn } from "./form-token";
import { DEMO, expect, expectMessage, requestsAloneRunOnce, signInAt, startSignedIn, test, uniqueEmail } from "./fixtures";

/**
 * A payment, a credit note or a group booking posted twice stores once
 * (docs/decisions/048-a-repeated-post-stores-once.md): the page's own client reads the form's
 * one-time token from the page and posts it twice at the same moment; one is stored, the other
 * is answered with the message and stores nothing.
 */

const EMPLOYER = "employer@example.com";

/** The one-time token of the form on `path`, read through the page's own client. */
const tokenOn = (page: Page, path: string) => formTokenOn(page.request, path);

/** Two posts of the same form at the same moment, through the page's own client; their answers, redirects not followed. */
async function postTwiceAtOnce(page: Page, path: string, form: Record<string, string>) {
  const answers = await Promise.all([0, 1].map(() => page.request.post(path, { form, maxRedirects: 0 })));
  const statuses = answers.map((a) => a.status()).sort();
  const repeat = answers.find((a) => a.status() === 409);
  return { statuses, repeatPage: repeat ? await repeat.text() : "", stored: answers.find((a) => a.status() === 302) };
}

/** A class three weeks ahead with seats, of a new course. */
async function openClass(seats = 10) {
  const course = await insertCourse();
  const start = new Date(Date.now() + 21 * 864e5).toISOString().slice(0, 10);
  return (await insertClass(course.id, start, start, seats, DEMO.trainer.email)).id;
}

const count = async (statement: string, ...params: unknown[]) => Number((await e2eDb().get<{ n: number }>(statement, ...params))!.n);

test.describe("a form posted twice at the same moment", () => {
  requestsAloneRunOnce();

  test("books once, pays once and credits once; the second post is told the form was already sent", async ({ page }) => {
    // the employer's booking: one booking, one invoice, one worker invited
    await startSignedIn(page, EMPLOYER);
    const classId = await openClass();
    const worker = uniqueEmail("twice-worker");
    const booking = await postTwiceAtOnce(page, "/employer/bookings/new", {
      [FORM_TOKEN_FIELD]: await tokenOn(page, "/employer/bookings/new"),
      class_id: classId,
      seats: "2",
      rows: "2",
      worker_name_0: "Robin Twice",
      worker_email_0: worker,
    });
    expect(booking.statuses).toEqual([302, 409]);
    expect(booking.repeatPage).toContain(FORM_ALREADY_SENT);
    const bookingId = booking.stored!.headers()["location"]!.split("?")[0]!.split("/").pop()!;
    expect(await count("select count(*) as n from group_bookings where class_id = ?", classId)).toBe(1);
    expect(await count("select count(*) as n from booking_workers where email = ?", worker)).toBe(1);
    expect(await count("select count(*) as n from invoices where source_id = ?", bookingId)).toBe(1);
    const invoice = (await e2eDb().get<{ id: string; total_cents: number }>("select id, total_cents from invoices where source_id = ?", bookingId))!;

    // the office records its payment, then a credit note
    await page.context().clearCookies();
    await startSignedIn(page, DEMO.admin.email);
    const path = `/admin/finance/${invoice.id}`;
    const paid = await postTwiceAtOnce(page, path, {
      [FORM_TOKEN_FIELD]: await tokenOn(page, path),
      intent: "payment",
      method: "bank_transfer",
      reference: "EFT twice",
      received_on: new Date().toISOString().slice(0, 10),
      amount: (Number(invoice.total_cents) / 100).toFixed(2),
    });
    expect(paid.statuses).toEqual([302, 409]);
    expect(paid.repeatPage).toContain(FORM_ALREADY_SENT);
    expect(await count("select count(*) as n from payments where invoice_id = ?", invoice.id)).toBe(1);
    const credited = await postTwiceAtOnce(page, path, {
      [FORM_TOKEN_FIELD]: await tokenOn(page, path),
      intent: "credit",
      confirm: "yes",
      amount: "10.00",
      reason: "A worker could not attend",
    });
    expect(credited.statuses).toEqual([302, 409]);
    expect(credited.repeatPage).toContain(FORM_ALREADY_SENT);
    expect(await count("select count(*) as n from credit_notes where invoice_id = ?", invoice.id)).toBe(1);
  });

  test("a form from a page without a token (opened before it had one) is a 400 that says so, and stores nothing", async ({ page }) => {
    await startSignedIn(page, EMPLOYER);
    const classId = await openClass();
    const answer = await page.request.post("/employer/bookings/new", { form: { class_id: classId, seats: "1", rows: "1" }, maxRedirects: 0 });
    expect(answer.status()).toBe(400);
    expect(await answer.text()).toContain(FORM_TOKEN_MISSING);
    expect(await count("select count(*) as n from group_bookings where class_id = ?", classId)).toBe(0);
  });
});

test("a payment form sent after its token was spent elsewhere says so, and the invoice shows the one payment", async ({ page, js }) => {
  await startSignedIn(page, EMPLOYER);
  const classId = await openClass();
  const token = await tokenOn(page, "/employer/bookings/new");
  const booked = await page.request.post("/employer/bookings/new", {
    form: { [FORM_TOKEN_FIELD]: token, class_id: classId, seats: "1", rows: "1" },
    maxRedirects: 0,
  });
  expect(booked.status()).toBe(302);
  const invoiceId = (await e2eDb().get<{ id: string }>(
    "select i.id from invoices i join group_bookings b on b.id = i.source_id where b.class_id = ?",
    classId,
  ))!.id;

  await page.context().clearCookies();
  await signInAt(page, DEMO.admin.email, `/admin/finance/${invoiceId}`);
  await page.getByLabel("Reference").fill("EFT first tab");
  await page.getByLabel("Amount").fill("1.00");
  // the same page open in another tab sent its form first, with the same token
  const pageToken = await page.locator(`input[name="${FORM_TOKEN_FIELD}"]`).first().inputValue();
  const other = await page.request.post(`/admin/finance/${invoiceId}`, {
    form: {
      [FORM_TOKEN_FIELD]: pageToken,
      intent: "payment",
      method: "bank_transfer",
      reference: "EFT other tab",
      received_on: new Date().toISOString().slice(0, 10),
      amount: "1.00",
    },
    maxRedirects: 0,
  });
  expect(other.status()).toBe(302);
  // its message was for the other tab
  await page.context().clearCookies({ name: "__flash" });
  await page.getByRole("button", { name: "Record payment" }).click();
  // the form's error summary says so, and with JavaScript a toast too
  await expect(page.locator("[data-error-summary]")).toContainText(FORM_ALREADY_SENT);
  if (js) await expect(page.locator("[data-sonner-toast]").filter({ hasText: FORM_ALREADY_SENT })).toBeVisible();
  // the page shows what the first post stored, once, and sends the next payment with a fresh token
  await expect(page.getByRole("main")).toContainText("EFT other tab");
  await expect(page.getByRole("main")).not.toContainText("EFT first tab");
  expect(await count("select count(*) as n from payments where invoice_id = ?", invoiceId)).toBe(1);
  await page.getByLabel("Reference").fill("EFT second payment");
  await page.getByLabel("Amount", { exact: true }).fill("1.00");
  await page.getByRole("button", { name: "Record payment" }).click();
  await expectMessage(page, js, "Payment recorded");
  await expect(page.getByRole("main")).toContainText("EFT second payment");
  expect(await count("select count(*) as n from payments where invoice_id = ?", invoiceId)).toBe(2);
});
