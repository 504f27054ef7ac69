import { DEMO, expect, expectMessage, signInAt, test } from "./fixtures";

/**
 * The refund policy's versions (docs/decisions/033): the office sees each with the day it took
 * effect on the finance settings page, cannot backdate a new one, and adds one for a later day.
 */
test("the office lists the refund policy versions, is refused a backdated one and adds a later one", async ({ page, js }) => {
  await signInAt(page, DEMO.admin.email, "/admin/finance/settings");
  const versions = page.getByRole("table");
  await expect(versions.getByRole("row").filter({ hasText: "2026-11-22" })).toBeVisible();

  await page.getByLabel("New version takes effect on").fill("2026-01-01");
  await page.getByRole("button", { name: "Add version" }).click();
  await expect(page.getByText(/takes effect today or later/).first()).toBeVisible();
  await expect(versions.getByRole("row").filter({ hasText: "2026-01-01" })).toHaveCount(0);

  // each project its own day: both run against one server
  const day = js ? "2031-01-01" : "2031-01-02";
  await page.getByLabel("New version takes effect on").fill(day);
  await page.getByRole("button", { name: "Add version" }).click();
  await expectMessage(page, js, "Refund policy version added");
  await expect(versions.getByRole("row").filter({ hasText: day })).toBeVisible();
});
