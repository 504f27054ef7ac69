import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { CREDIT_NOTE_ISSUED } from "../../app/schemas/invoice-text";
import { formatDate } from "../../app/utils/format";
import { e2eDb } from "./e2e-db";
import { expect, expectMessage, organisationToday } from "./fixtures";

/**
 * A buyer's credit notes, as the employer's and the learner's journeys prove them: the office
 * issues one on the invoice's page (asked twice), and the buyer finds it under the invoice on
 * their own invoices page, downloads its PDF, and gets the same plain-text 404 for any credit note
 * that is not theirs as for an unknown or malformed id.
 */

/** The office, on an invoice's page with money paid on it, credits `amount` (dollars, as typed) for `reason`; answers the credit note's number. */
export async function officeIssuesCreditNote(page: Page, js: boolean, amount: string, reason: string): Promise<string> {
  await page.getByLabel("Credit amount").fill(amount);
  await page.getByLabel("Reason").fill(reason);
  await page.getByRole("button", { name: "Issue credit note" }).click();
  await page.getByRole("button", { name: "Yes, issue the credit note" }).click();
  await expectMessage(page, js, new RegExp(`^${CREDIT_NOTE_ISSUED}: CN-\\d+$`));
  // the page lists its credit notes by number, newest last
  return (await page
    .getByRole("link", { name: /^CN-\d+$/ })
    .last()
    .textContent())!.trim();
}

/**
 * On the buyer's invoices page (`portal` /employer or /student, signed in as the buyer): the
 * credit note under its invoice with its date, amount, reason and PDF link, what is owed; the
 * PDF downloads; another's credit note, an unknown id and a malformed one answer the same 404.
 */
export async function expectBuyerCreditNote(
  page: Page,
  portal: "/employer" | "/student",
  expected: { invoice: string; number: string; amount: string; reason: string; owed: string },
) {
  await page.goto(`${portal}/invoices`);
  const invoice = page.getByRole("listitem").filter({ hasText: `Invoice ${expected.invoice}` });
  await expect(invoice).toContainText(`owed ${expected.owed}`);
  const notes = invoice.getByRole("list", { name: `Credit notes against invoice ${expected.invoice}` });
  await expect(notes).toContainText(`Credit note ${expected.number}, issued ${formatDate(organisationToday())}: ${expected.amount} credited and refunded`);
  await expect(notes).toContainText(`Reason: ${expected.reason}`);
  const link = notes.getByRole("link", { name: `Download PDF of credit note ${expected.number}` });
  const href = (await link.getAttribute("href"))!;
  expect(href).toMatch(new RegExp(`^${portal}/credit-notes/[0-9a-f-]{36}/pdf$`));
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe(`${expected.number}.pdf`);

  // over HTTP, with the buyer's session: their own is the office's PDF
  const own = await page.request.get(href);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-type"]).toBe("application/pdf");
  expect((await own.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  // any credit note against an invoice that is not theirs, an unknown id and a malformed one: one readable 404
  const id = href.split("/")[3]!;
  const another = await e2eDb().get<{ id: string }>("select id from credit_notes where id <> ? order by issue_date", id);
  expect(another, "another buyer's credit note (the demo keeps one)").toBeDefined();
  for (const path of [
    `${portal}/credit-notes/${another!.id}/pdf`,
    `${portal}/credit-notes/${crypto.randomUUID()}/pdf`,
    `${portal}/credit-notes/not-an-id/pdf`,
  ]) {
    const answer = await page.request.get(path, { maxRedirects: 0 });
    expect(answer.status(), path).toBe(404);
    expect(answer.headers()["content-type"], path).toBe("text/plain; charset=utf-8");
    expect(await answer.text(), path).toBe("Credit note not found\n");
  }
  // a missing invoice's PDF answers the same way, not a JSON string
  const missing = await page.request.get(`${portal}/invoices/${crypto.randomUUID()}/pdf`, { maxRedirects: 0 });
  expect([missing.status(), missing.headers()["content-type"], await missing.text()]).toEqual([404, "text/plain; charset=utf-8", "Invoice not found\n"]);
}
