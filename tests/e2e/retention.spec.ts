import crypto from "node:crypto";
import { e2eDb } from "./e2e-db";
import { DEMO, expect, expectMessage, signInAt, test, NO_FORM } from "./fixtures";

/**
 * The Retention page as an administrator meets it: it loads (with JavaScript: hydrated with no
 * console error and no page error; without: rendered by the server), lists the rules in their
 * words, and saves a rule, with JavaScript without a reload and with a toast.
 */
test("retention: the page loads and hydrates without an error and a rule is saved", async ({ page, js }) => {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  const failures: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 500) failures.push(`${r.status()} ${r.url()}`);
  });

  await signInAt(page, DEMO.admin.email, "/admin/retention");
  if (js)
    await page.waitForFunction(() => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true);
  await expect(page.getByRole("heading", { level: 1, name: "Retention" })).toBeVisible();
  await expect(page.getByText("Failed to load retention")).toHaveCount(0);
  const rules = page.getByRole("table", { name: "Retention rules" });
  await expect(rules.getByRole("rowheader", { name: "Completed assessment evidence" }).first()).toBeVisible();
  await expect(rules.getByRole("rowheader", { name: "The audit trail" })).toBeVisible();

  // a licence class no demo course names, so no evidence's keep-until day moves
  const licenceClass = "CD";
  const documents: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "document") documents.push(r.url());
  });
  await page.getByLabel("Records").selectOption("assessment_evidence");
  await page.getByLabel("Licence class").selectOption(licenceClass);
  await page.getByLabel("Keep for (months)").fill("24");
  await page.getByLabel("Source").fill("The regulator asks longer for this class");
  await page.getByRole("button", { name: "Save rule" }).click();
  await expectMessage(page, js, "Retention rule saved");
  await expect(rules.getByRole("row").filter({ has: page.getByRole("cell", { name: licenceClass, exact: true }) })).toContainText("2 years");
  const saved = await e2eDb().get<{ keep_months: number }>(
    "select keep_months from retention_rules where record_type = ? and licence_class = ?",
    "assessment_evidence",
    licenceClass,
  );
  expect(Number(saved?.keep_months)).toBe(24);
  // with JavaScript the form posts through the router: no document is loaded again
  if (js) expect(documents).toEqual([]);

  expect(failures).toEqual([]);
  expect(errors).toEqual([]);
});

/**
 * A tombstone names its files' SHA-256 hashes, 64 characters without a space: at 360 px the page
 * still fits, the hash breaking rather than widening the page.
 */
test("retention: destroyed records with their hashes fit a 360 px phone", NO_FORM, async ({ page }) => {
  const admin = await e2eDb().get<{ id: string }>("select id from users where email = ?", DEMO.admin.email);
  const hash = crypto.randomBytes(32).toString("hex");
  await e2eDb().run(
    "insert into destroyed_records (id, record_type, record_id, subject_user_id, description, hashes, destroyed_by, destroyed_at) values (?, 'assessment_evidence', ?, null, ?, ?, ?, ?)",
    crypto.randomUUID(),
    crypto.randomUUID(),
    "yard-photo-with-a-long-name.jpg (photo), evidence of a learner's unit assessment",
    JSON.stringify([hash, crypto.randomBytes(32).toString("hex")]),
    admin!.id,
    new Date().toISOString(),
  );
  // and a rule whose source is one long word: the rules table scrolls in its own box
  const licenceClass = `P${crypto.randomBytes(3).toString("hex")}`;
  await e2eDb().run(
    "insert into retention_rules (record_type, licence_class, keep_months, source, updated_by, updated_at) values ('assessment_evidence', ?, 120, ?, ?, ?)",
    licenceClass,
    `https://regulator.example/instruments/retention-of-assessment-evidence-${licenceClass}`,
    admin!.id,
    new Date().toISOString(),
  );
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAt(page, DEMO.admin.email, "/admin/retention");
  const tombstone = page.getByRole("listitem").filter({ hasText: hash });
  await expect(tombstone).toBeVisible();
  const box = (await tombstone.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
