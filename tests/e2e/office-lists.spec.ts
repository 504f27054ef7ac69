import crypto from "node:crypto";
import { chainHash, type ChainedAuditRow } from "../../db/audit-chain";
import { e2eDb, insertTrainer } from "./e2e-db";
import { DEMO, expect, expectAccessible, registerStudent, signIn, signInAt, test, NO_FORM } from "./fixtures";

/**
 * The office's lists read days on the organisation's calendar: an entry made at 1:23 am in
 * Sydney on 28 Nov (14:23 UTC on 27 Nov) is found "from 28 Nov", shown at 1:23 am, and written to
 * the CSV with its +11:00 offset.
 */
test("the audit trail's day filter finds an entry made at 1 am Sydney time", async ({ page }) => {
  const db = e2eDb();
  const subject = crypto.randomUUID();
  // the next link of the chain, as the portal writes it, so the trail still verifies
  for (let attempt = 0; ; attempt++) {
    const head = (await db.get<{ last_id: number; last_hash: string }>("select last_id, last_hash from audit_head"))!;
    const row: ChainedAuditRow = {
      id: Number(head.last_id) + 1,
      at: "2025-11-27T14:23:52.000Z",
      action: "students.exported",
      actor_id: null,
      actor_email: null,
      subject_type: "students",
      subject_id: subject,
      subject_user_id: null,
      client: "203.0.113.9",
      fields: null,
      detail: "made at 1:23 am",
      prev_hash: head.last_hash,
    };
    try {
      await db.run(
        "insert into audit_log (id, at, action, actor_id, actor_email, subject_type, subject_id, subject_user_id, client, fields, detail, prev_hash, hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ...Object.values(row),
        chainHash(row),
      );
      break;
    } catch (error) {
      // another test's entry took that number first
      if (attempt >= 3) throw error;
    }
  }

  await signInAt(page, DEMO.admin.email, "/admin/audit");
  await page.getByLabel("Subject", { exact: true }).fill(subject);
  await page.getByLabel("From", { exact: true }).fill("2025-11-28");
  await page.getByLabel("To", { exact: true }).fill("2025-11-28");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/from=2025-11-28/);
  await expect(page.getByRole("status").filter({ hasText: /^1 entry$/ })).toBeVisible();
  const row = page.getByRole("table", { name: "Audit trail entries, newest first" }).getByRole("row").filter({ hasText: "made at 1:23 am" });
  await expect(row).toContainText("28 Nov 2025");
  await expect(row).toContainText("1:23 am");
  await expect(page.getByText("Showing 1–1 of 1 entry (page 1 of 1)")).toBeVisible();

  // the UTC day it was made on finds nothing
  await page.getByLabel("From", { exact: true }).fill("2025-11-27");
  await page.getByLabel("To", { exact: true }).fill("2025-11-27");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/to=2025-11-27/);
  await expect(page.getByRole("status").filter({ hasText: /^0 entries$/ })).toBeVisible();

  const csv = await page.request.get(`/admin/audit.csv?subject=${subject}&from=2025-11-28&to=2025-11-28`);
  expect(csv.status()).toBe(200);
  const text = await csv.text();
  expect(text).toContain("2025-11-28T01:23:52+11:00");
  expect(text).not.toContain("2025-11-27T14:23:52");
});

test("the enrolment-details dialog's old address redirects permanently to its new one", NO_FORM, async ({ page, request }) => {
  const old = await request.get("/student/profile/enrolment?from=mail", { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(old.headers()["location"]).toBe("/student/profile/enrollment?from=mail");
  // a form posted to the old address keeps its method on the way
  const posted = await request.post("/student/profile/enrolment", { maxRedirects: 0, form: { x: "1" } });
  expect([308, 403]).toContain(posted.status());

  await signInAt(page, DEMO.student.email, "/student/profile/enrolment");
  await expect(page).toHaveURL(/\/student\/profile\/enrollment$/);
  await expect(page.getByRole("dialog")).toBeVisible();
});

test("notifications page through every one, the page counting what the badge counts, and one's own edits add none", async ({ page }) => {
  const student = await registerStudent(page, "Notice Reader");
  const db = e2eDb();
  const { id } = (await db.get<{ id: string }>("select id from users where email = ?", student.email))!;
  const base = Date.now() - 3 * 24 * 3600_000;
  for (let n = 1; n <= 25; n++) {
    await db.run(
      "insert into events (id, actor_id, subject_user_id, type, entity_type, entity_id, message, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)",
      crypto.randomUUID(),
      null,
      id,
      "enrollment.progress",
      "enrollment",
      null,
      `Progress notice ${n}`,
      new Date(base + n * 60_000).toISOString(),
    );
  }
  // with the welcome written at registration: 26
  await signInAt(page, student.email, "/student/notifications");
  await expect(page.locator("#main").getByText("26 unread", { exact: true })).toBeVisible();
  await expect(page.getByTestId("notification-count")).toHaveText(/^26/);
  const pager = page.getByRole("navigation", { name: "Notifications pages" });
  await expect(pager).toContainText("Showing 1–20 of 26 notifications (page 1 of 2)");
  await expect(page.getByText("Progress notice 25")).toBeVisible();
  await expect(page.getByText("Progress notice 5", { exact: true })).toHaveCount(0);
  await expectAccessible(page);

  await pager.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(pager).toContainText("Showing 21–26 of 26 notifications (page 2 of 2)");
  await expect(page.getByText("Progress notice 5", { exact: true })).toBeVisible();
  await expect(page.getByText("Progress notice 1", { exact: true })).toBeVisible();

  // saving one's own contact details is no news to oneself
  await page.goto("/student/profile/edit");
  await page.getByLabel("Phone").fill("0400 123 456");
  await page.getByRole("button", { name: /Save/ }).click();
  await expect(page).toHaveURL(/\/student\/profile$/);
  await expect(page.getByTestId("notification-count")).toHaveText(/^26/);
});

/**
 * With JavaScript a list's search box sends the search 300 ms after the last keystroke. A search
 * still waiting when the person sends it themselves (Enter) or follows a link must not be sent
 * after all: it took the office from the trainer it had opened back to the list.
 */
test("a search waiting to be sent never takes the office back to the list", async ({ page, js }) => {
  test.skip(!js, "the search follows the box only with JavaScript");
  const name = `Quinn Searchlate ${crypto.randomUUID().slice(0, 8)}`;
  await insertTrainer(name);
  await signIn(page, DEMO.admin.email);
  // the trainer's page answers its data a second late: the waiting search has time to fire
  await page.route(/\/admin\/credentials\/[^/?]+\.data/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  const trainerPage = (who: string) => page.getByRole("heading", { level: 1, name: `Credentials: ${who}` });
  const searches: string[] = [];
  page.on("request", (request) => {
    if (/\/admin\/credentials\.data\?/.test(request.url())) searches.push(request.url());
  });

  // typed, then a trainer the list already shows followed at once
  await page.goto("/admin/credentials");
  const box = page.getByLabel("Find a trainer");
  // React has taken over the box (its handlers are on it): the search follows what is typed
  const hydrated = () => box.evaluate((input) => Object.keys(input).some((key) => key.startsWith("__reactFiber")));
  await expect.poll(hydrated).toBe(true);
  const shown = page
    .getByRole("region", { name: /Credential matrix/ })
    .getByRole("columnheader")
    .getByRole("link")
    .first();
  const first = (await shown.textContent())!.trim();
  await box.fill(name);
  await shown.click();
  await expect(trainerPage(first)).toBeVisible();
  await page.waitForTimeout(600);
  await expect(trainerPage(first)).toBeVisible();
  expect(new URL(page.url()).pathname).toMatch(/^\/admin\/credentials\/[^/]+$/);

  // typed and sent with Enter: sent once, and the link followed next stays followed
  await page.goto("/admin/credentials");
  searches.length = 0;
  await expect.poll(hydrated).toBe(true);
  await box.fill(name);
  await box.press("Enter");
  await expect(page).toHaveURL(/[?&]q=/);
  await page.getByRole("link", { name, exact: true }).first().click();
  await expect(trainerPage(name)).toBeVisible();
  await page.waitForTimeout(600);
  await expect(trainerPage(name)).toBeVisible();
  expect(searches, "the search sent once").toHaveLength(1);
});
