import type { Page } from "@playwright/test";
import { CONSENT_REQUIRED, INVITATION_USED, WORKER_ACCEPTED } from "../../app/schemas/employer-text";
import { passwordRule, passwordTooShort } from "../../app/schemas/password-text";
import { isAbn } from "../../app/utils/abn";
import { formatDate } from "../../app/utils/format";
import { FORM_TOKEN_FIELD } from "../../app/utils/form-token";
import { completeWithStatement, e2eDb, insertClass, insertCourse } from "./e2e-db";
import { formTokenOn } from "./form-token";
import {
  DEMO,
  expect,
  expectAccessible,
  expectMessage,
  organisationToday,
  REGISTRATION_PASSWORD,
  registerStudent,
  signInAt,
  signOut,
  startSignedIn,
  test,
  uniqueEmail,
  uniqueUsi,
} from "./fixtures";
import { mailedLink } from "./mailed-link";
import { expectBuyerCreditNote, officeIssuesCreditNote } from "./credit-notes";

/**
 * An employer's crew, end to end (docs/decisions/032 and 033): the office invites the employer,
 * who books 3 seats and names 3 workers; a worker accepts and shares their results (and can
 * withdraw that from their portal); the worker completes; the employer downloads the statement;
 * the office records the payment and the month's Xero export carries the invoice; the declined
 * seat is refunded by a credit note, which the employer sees under the invoice and downloads.
 */

/** A valid ABN of its own for each run (employers' ABNs are unique). */
function anAbn(): string {
  for (;;) {
    const digits = String(10_000_000_000 + Math.floor(Math.random() * 89_999_999_999));
    if (isAbn(digits)) return digits;
  }
}

const formatMoney = (dollars: number) => new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD" }).format(dollars);

async function fillWorker(page: Page, i: number, name: string, email: string) {
  await page.getByLabel(`Worker ${i} name`).fill(name);
  await page.getByLabel(`Worker ${i} email`).fill(email);
}

test("an employer books a crew; a worker accepts and shares results; the employer downloads the statement; the office is paid and exports the invoice", async ({
  page,
  js,
}) => {
  test.setTimeout(90_000);
  const course = await insertCourse();
  const start = new Date(Date.now() + 30 * 864e5).toISOString().slice(0, 10);
  const cls = await insertClass(course.id, start, start, 6, DEMO.trainer.email);
  const employerName = `Harbour Civil ${course.unit_code}`;
  const booker = uniqueEmail("booker");
  const workers = [1, 2, 3].map((n) => ({ name: `Crew Member ${n}`, email: uniqueEmail(`worker${n}`) }));

  // the office adds the employer and invites its booker
  await signInAt(page, DEMO.admin.email, "/admin/employers");
  await page.getByLabel("Organisation name").fill(employerName);
  await page.getByLabel("ABN").fill(anAbn());
  await page.getByLabel("Billing contact name").fill("Morgan Hale");
  await page.getByLabel("Billing contact email").fill(uniqueEmail("accounts"));
  await page.getByLabel("Billing contact phone").fill("02 4900 1200");
  await page.getByLabel("Address").fill("1 Wharf Rd\nNewcastle NSW 2300");
  await page.getByRole("button", { name: "Add employer" }).click();
  await expect(page.getByRole("heading", { level: 1, name: employerName })).toBeVisible();
  await page.getByLabel("Full name").fill("Morgan Hale");
  await page.getByLabel("Email", { exact: true }).fill(booker);
  await page.getByRole("button", { name: "Invite user" }).click();
  await expectMessage(page, js, "Invitation sent");
  await signOut(page);

  // the booker chooses a password, signs in and books 3 seats for 3 named workers
  await page.goto(await mailedLink(booker, "employer-invitation"));
  // the rule beside the field is the one a short password is refused by
  await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(passwordRule("employer"));
  await page.getByLabel("Password", { exact: true }).fill("Kx7!q");
  await page.getByLabel("Confirm password").fill("Kx7!q");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(`${passwordTooShort("employer")} ${passwordRule("employer")}`);
  await page.getByLabel("Password", { exact: true }).fill(REGISTRATION_PASSWORD);
  await page.getByLabel("Confirm password").fill(REGISTRATION_PASSWORD);
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page).toHaveURL(/\/login/);
  await signInAt(page, booker, "/employer/bookings/new", REGISTRATION_PASSWORD);
  // the classes are cards that say the date and the seats left first
  const card = page.getByRole("radio", { name: new RegExp(`^${formatDate(start)} · 6 seats left ${course.name}`) });
  await expect(card).toHaveAttribute("value", cls.id);
  await card.check();
  await page.getByLabel("Seats", { exact: true }).fill("3");
  // one worker row per seat: with JavaScript as the seats are typed, without it when asking for a row
  if (!js) await page.getByRole("button", { name: "Add a worker" }).click();
  await expect(page.getByLabel("Worker 3 name")).toBeVisible();
  await expect(page.getByLabel("Worker 4 name")).toHaveCount(0);
  await expect(page.getByRole("radio", { name: new RegExp(course.name) })).toBeChecked();
  // the price before booking: per seat, the GST and the total, as the invoice will bill it
  const price = page.getByRole("region", { name: "Price" });
  await expect(price).toContainText(`Price per seat${formatMoney(course.price)}`);
  await expect(price).toContainText("GST includedNone (GST-free)");
  await expect(price).toContainText(`Total${formatMoney(course.price * 3)}`);
  // the refund policy the booking is made under, with its version, before booking
  const policy = await e2eDb().get<{ version: string }>(
    "select version from refund_policies where effective_from <= ? order by effective_from desc limit 1",
    organisationToday(),
  );
  await expect(page.getByRole("region", { name: "Refund policy" })).toContainText(`Version of ${formatDate(policy!.version)}`);
  // a mistake in one worker's row is named at that worker's field, and the summary links to it
  for (const [i, w] of workers.entries()) await fillWorker(page, i + 1, w.name, i === 1 ? "not-an-address" : w.email);
  await page.getByRole("button", { name: "Book seats" }).click();
  await expect(page.getByLabel("Worker 2 email")).toHaveAccessibleDescription(/^Worker 2: /);
  await expect(page.getByLabel("Worker 1 email")).not.toHaveAccessibleDescription(/Worker/);
  await expect(page.locator("[data-error-summary] a")).toHaveAttribute("href", "#worker_email_1");
  await expect(page.getByLabel("Worker 3 email")).toHaveValue(workers[2]!.email);
  await fillWorker(page, 2, workers[1]!.name, workers[1]!.email);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Book seats" }).click();
  await expectMessage(page, js, "3 seats booked");
  await expect(page.getByRole("heading", { level: 1, name: course.name })).toBeVisible();
  await expect(page.getByText("3 seats held, 3 workers named, 0 accepted.")).toBeVisible();
  const bookingPath = new URL(page.url()).pathname;
  // the booking keeps that version: a credit note against its invoice names it
  expect(await e2eDb().get("select refund_policy_version from group_bookings where id = ?", bookingPath.split("/").pop())).toEqual({
    refund_policy_version: policy!.version,
  });
  // the confirmation carries the same price, and the invoice is in the employer's list
  await expect(page.getByRole("main")).toContainText(`Total${formatMoney(course.price * 3)}`);
  await page.getByRole("link", { name: "Invoices" }).first().click();
  await expect(page.getByRole("listitem").filter({ hasText: `owed ${formatMoney(course.price * 3)}` })).toContainText("Owed");
  await signOut(page);

  // the first worker accepts: a new account, their USI, and yes to sharing results
  const worker = workers[0]!;
  await page.goto(await mailedLink(worker.email, "invitation"));
  await expect(page.getByRole("heading", { name: `${employerName} has booked you a seat` })).toBeVisible();
  // the password's rule is there before anything is typed, tied to the field
  await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(/At least 6 characters, not a common password/);
  // a form sent empty lists its errors in the form's own order, top to bottom
  await page.getByRole("button", { name: "Accept the seat" }).click();
  await expect(page.locator("[data-error-summary] a").first()).toHaveAttribute("href", "#password");
  const summaryOrder = await page.locator("[data-error-summary] a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  expect(summaryOrder).toEqual(["#password", "#confirm_password", "#consent"]);
  await expect(consentQuestion(page)).toHaveAccessibleDescription(CONSENT_REQUIRED);
  await page.getByLabel("Password", { exact: true }).fill(REGISTRATION_PASSWORD);
  await page.getByLabel("Confirm password").fill(REGISTRATION_PASSWORD);
  await page.getByLabel("USI (Unique Student Identifier)").fill(uniqueUsi());
  await page.getByLabel("Yes, share my results").check();
  await page.getByRole("button", { name: "Accept the seat" }).click();
  await expectMessage(page, js, "You are enrolled in the class");
  // their portal says so, and the answer can be withdrawn and given again
  await signInAt(page, worker.email, "/student/employers", REGISTRATION_PASSWORD);
  const booking = page.getByRole("listitem").filter({ hasText: course.name });
  await expect(booking).toContainText("Shares results");
  await booking.getByRole("button", { name: /Stop sharing my results/ }).click();
  await expectMessage(page, js, "Your choice about sharing results is saved");
  await expect(page.getByRole("listitem").filter({ hasText: course.name })).toContainText("Does not share results");
  await expectAccessible(page);
  await page
    .getByRole("listitem")
    .filter({ hasText: course.name })
    .getByRole("button", { name: /Share my results/ })
    .click();
  await expect(page.getByRole("listitem").filter({ hasText: course.name })).toContainText("Shares results");
  await signOut(page);

  // the second worker declines the seat, asked first what that does
  const decliner = workers[1]!;
  const declineLink = await mailedLink(decliner.email, "invitation");
  await page.goto(declineLink);
  await page.getByRole("button", { name: "Decline the seat" }).click();
  await expect(page.getByRole(js ? "dialog" : "region", { name: "Decline this seat?" })).toContainText(`${employerName} will see that you declined`);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Yes, decline the seat" }).click();
  await expectMessage(page, js, `You declined the seat: ${employerName} can see that`);
  // the link is spent
  await page.goto(declineLink);
  await expect(page.getByRole("alert")).toHaveText(INVITATION_USED);

  // the worker completes; the employer sees it and downloads the statement
  const certificateId = await completeWithStatement(worker.email, course.id);
  await signInAt(page, booker, "/employer/overview", REGISTRATION_PASSWORD);
  await page.getByRole("link", { name: worker.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: worker.name })).toBeVisible();
  const statement = page.getByRole("link", { name: /^Download statement of attainment/ });
  await expect(statement).toHaveAttribute("href", `/certificates/${certificateId}/download`);
  const [download] = await Promise.all([page.waitForEvent("download"), statement.click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  await expectAccessible(page);
  // the booking shows who declined, and the seat is the employer's to name again
  await page.goto(bookingPath);
  await expect(page.getByText("3 seats held, 2 workers named, 1 accepted, 1 declined")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: decliner.name })).toContainText("Declined");
  await expect(page.getByText("1 seat has no worker named yet")).toBeVisible();
  await signOut(page);

  // the office records the payment of the booking's invoice, and the month's Xero export has it
  await signInAt(page, DEMO.admin.email, `/admin/finance?buyer=${encodeURIComponent(employerName)}`);
  const invoiceLink = page.getByRole("link", { name: /^INV-/ });
  const number = (await invoiceLink.textContent())!.trim();
  await invoiceLink.click();
  await page.getByLabel("Reference").fill("EFT 20410");
  await page.getByLabel("Amount").fill((course.price * 3).toFixed(2));
  await page.getByRole("button", { name: "Record payment" }).click();
  await expectMessage(page, js, "Payment recorded");
  const today = organisationToday();
  const csv = await (await page.request.get(`/admin/finance/xero.csv?from=${today.slice(0, 8)}01&to=${today}`)).text();
  const row = csv.split("\n").find((line) => line.includes(number));
  expect(row).toContain(employerName);
  expect(row).toContain("GST Free Income");

  // the declined seat is refunded: the office credits it against the paid invoice, and the
  // booker finds the credit note under the invoice, with nothing owed, and downloads it
  const reason = `${decliner.name} declined the seat: refunded`;
  const note = await officeIssuesCreditNote(page, js, course.price.toFixed(2), reason);
  await signOut(page);
  await signInAt(page, booker, "/employer/invoices", REGISTRATION_PASSWORD);
  await expectBuyerCreditNote(page, "/employer", { invoice: number, number: note, amount: formatMoney(course.price), reason, owed: formatMoney(0) });
  await expectAccessible(page);
});

/** The invitation's question about sharing results: a group of two radios, its error tied to the group. */
const consentQuestion = (page: Page) => page.getByRole("group", { name: /see your results/ });

test("a worker who already has an account signs in, accepts without answering the sharing question and is asked it at the question", async ({ page, js }) => {
  const course = await insertCourse();
  const start = new Date(Date.now() + 25 * 864e5).toISOString().slice(0, 10);
  const cls = await insertClass(course.id, start, start, 4, DEMO.trainer.email);
  const worker = await registerStudent(page, "Existing Worker");
  // the demo employer books a seat for the learner's address: the invitation is to an account with a password
  await startSignedIn(page, "employer@example.com");
  const booked = await page.request.post("/employer/bookings/new", {
    form: {
      [FORM_TOKEN_FIELD]: await formTokenOn(page.request, "/employer/bookings/new"),
      class_id: cls.id,
      seats: "1",
      rows: "1",
      worker_name_0: worker.name,
      worker_email_0: worker.email,
    },
    maxRedirects: 0,
  });
  expect(booked.status(), "the booking redirects to its page").toBe(302);
  await page.context().clearCookies();
  const link = await mailedLink(worker.email, "invitation");
  const accepted = () =>
    e2eDb().get<{ accepted_at: string | null; consent: number | null }>("select accepted_at, consent from booking_workers where email = ?", worker.email);

  await startSignedIn(page, worker.email, worker.password);
  await page.goto(link);
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Accept the seat" }).click();
  // the question's own message, at the question; nothing else said, nothing stored
  await expect(consentQuestion(page)).toHaveAccessibleDescription(CONSENT_REQUIRED);
  await expect(page.locator("[data-error-summary] a")).toHaveText([CONSENT_REQUIRED]);
  await expect(page.locator("[data-error-summary] a")).toHaveAttribute("href", "#consent");
  await expect(page.getByText("Failed to accept the invitation")).toHaveCount(0);
  await expectAccessible(page);
  expect(await accepted()).toMatchObject({ accepted_at: null, consent: null });
  // answered, the seat is accepted
  await page.getByLabel("No, do not share them").check();
  await page.getByRole("button", { name: "Accept the seat" }).click();
  await expectMessage(page, js, WORKER_ACCEPTED);
  await expect(page).toHaveURL(/\/student/);
  expect(await accepted()).toMatchObject({ consent: 0 });
  expect((await accepted())?.accepted_at).toBeTruthy();
});

test("at 360 px the class cards show their date and seats whole, and the price, the worker rows and the decline question fit", async ({ page, js }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const course = await insertCourse();
  const start = new Date(Date.now() + 20 * 864e5).toISOString().slice(0, 10);
  await insertClass(course.id, start, start, 4, DEMO.trainer.email);
  const worker = { name: "Phone Worker", email: uniqueEmail("phone-worker") };
  await signInAt(page, "employer@example.com", "/employer/bookings/new");
  const card = page.getByRole("radio", { name: new RegExp(`^${formatDate(start)} · 4 seats left ${course.name}`) });
  await card.check();
  // the date and the seats left are on screen whole: the card's first line ends inside the screen
  const firstLine = page
    .locator("label")
    .filter({ has: card })
    .getByText(`${formatDate(start)} · 4 seats left`);
  const box = (await firstLine.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  await page.getByLabel("Seats", { exact: true }).fill("2");
  if (!js) await page.getByRole("button", { name: "Add a worker" }).click();
  await expect(page.getByRole("main")).toContainText(`Total${formatMoney(course.price * 2)}`);
  await expect(page.getByLabel("Worker 2 name")).toBeVisible();
  await fits();
  await fillWorker(page, 1, worker.name, worker.email);
  await page.getByRole("button", { name: "Book seats" }).click();
  await expectMessage(page, js, "2 seats booked");
  await fits();
  await signOut(page);
  await page.goto(await mailedLink(worker.email, "invitation"));
  await fits();
  await page.getByRole("button", { name: "Decline the seat" }).click();
  await expect(page.getByRole("button", { name: "Yes, decline the seat" })).toBeVisible();
  await fits();
});
