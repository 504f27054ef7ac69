import crypto from "node:crypto";
import { MAIL_RESENT } from "../../app/schemas/mail-text";
import { e2eDb } from "./e2e-db";
import { DEMO, expect, expectMessage, signIn, test } from "./fixtures";

/**
 * Mail (administrators): a message given up after its last try is listed with its error, and
 * "Send again" sends it, with and without JavaScript.
 */
test("an administrator finds a given-up message and sends it again", async ({ page, js }) => {
  const db = e2eDb();
  const student = (await db.get<{ id: string }>("select id from users where email = ?", DEMO.student.email))!;
  const course = `Mail check ${crypto.randomUUID().slice(0, 8)}`;
  const id = crypto.randomUUID();
  const at = new Date(Date.now() - 3600_000).toISOString();
  await db.run(
    "insert into outbox_messages (id, key, recipient_id, template, data, state, attempts, next_attempt_at, created_at, last_error) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    id,
    `e2e-${id}`,
    student.id,
    "class-cancelled",
    JSON.stringify({ course, start: "2026-12-01", end: "2026-12-02", path: "/courses" }),
    "given_up",
    6,
    at,
    at,
    "451 Requested action aborted: local error in processing",
  );

  await signIn(page, DEMO.admin.email);
  await page.getByRole("link", { name: "Mail", exact: true }).filter({ visible: true }).first().click();
  await expect(page).toHaveURL(/\/admin\/mail$/);
  await page.getByLabel("State", { exact: true }).selectOption("given_up");
  await page.getByLabel("Recipient", { exact: true }).fill(DEMO.student.name);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/state=given_up/);
  const row = page.getByRole("row").filter({ hasText: course });
  await expect(row).toContainText("Given up");
  await expect(row).toContainText("Last error: 451 Requested action aborted");
  await expect(row).toContainText(DEMO.student.email);

  await row.getByRole("button", { name: /^Send again/ }).click();
  await expectMessage(page, js, MAIL_RESENT);
  await expect(page).toHaveURL(/state=given_up/);
  await expect
    .poll(async () => (await db.get<{ state: string }>("select state from outbox_messages where id = ?", id))?.state, { timeout: 15_000 })
    .toBe("sent");
});
