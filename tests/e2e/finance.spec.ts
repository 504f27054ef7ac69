import type { Page, Response } from "@playwright/test";
import { DEMO, expect, expectAccessible, signInAt, test } from "./fixtures";

/**
 * The Xero export's period (docs/decisions/033): a download has no page of its own, so a period
 * it refuses comes back to the finance page's export form, each message at its date, as a 400.
 */

/** The finance page's document answer the navigation lands on (a download sent back there). */
const financePage = (page: Page) =>
  page.waitForResponse((r: Response) => new URL(r.url()).pathname === "/admin/finance" && r.request().resourceType() === "document");

test("the Xero export's refused period is told at its dates, and a right one downloads", async ({ page, js }) => {
  await signInAt(page, DEMO.admin.email, "/admin/finance");
  const exportForm = page.getByRole("region", { name: "Export for Xero" });
  const from = exportForm.getByLabel("From");
  const to = exportForm.getByLabel("To");
  // each project its own period: both run against one server
  const year = js ? "2031" : "2032";

  // the end before the start: said at To, with the period as typed
  await from.fill(`${year}-03-01`);
  await to.fill(`${year}-02-01`);
  const [refused] = await Promise.all([financePage(page), exportForm.getByRole("button", { name: "Download CSV" }).click()]);
  expect(refused.status()).toBe(400);
  await expect(to).toHaveAccessibleDescription("From must be on or before To");
  await expect(from).not.toHaveAttribute("aria-invalid", "true");
  await expect(from).toHaveValue(`${year}-03-01`);
  await expect(to).toHaveValue(`${year}-02-01`);
  // the summary is the form's own, linking to the field; no message at the top of the page
  await expect(exportForm.locator("[data-error-summary] a")).toHaveAttribute("href", "#export-to");
  await expect(page.locator("[data-error-summary]")).toHaveCount(1);
  await expect(page.getByRole("status").filter({ hasText: "From must be on or before To" })).toHaveCount(0);
  // the invoice filters above keep their own fields, untouched
  await expect(page.getByLabel("Issued to")).not.toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);

  // a day that does not exist, sent to the download's own address: told at From
  const bad = await page.goto(`/admin/finance/xero.csv?from=${year}-02-30&to=${year}-03-01`);
  expect(bad?.status()).toBe(400);
  await expect(from).toHaveAccessibleDescription("Enter a real date");
  await expect(to).not.toHaveAttribute("aria-invalid", "true");

  // put right, the period downloads
  await from.fill(`${year}-01-01`);
  await to.fill(`${year}-01-31`);
  const [download] = await Promise.all([page.waitForEvent("download"), exportForm.getByRole("button", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`xero-invoices-${year}-01-01-to-${year}-01-31.csv`);
});
