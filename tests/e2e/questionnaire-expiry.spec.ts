import crypto from "node:crypto";
import { QUESTIONNAIRE_EXPIRED, QUESTIONNAIRE_LINK_DAYS } from "../../app/schemas/improvement-text";
import { e2eDb } from "./e2e-db";
import { expect, expectAccessible, test, NO_FORM } from "./fixtures";

/**
 * A questionnaire link works for QUESTIONNAIRE_LINK_DAYS after its invitation: opened later, the
 * page says it expired (410) and offers no form; opened the day before, the questionnaire shows.
 */
async function invitationMadeDaysAgo(days: number): Promise<string> {
  const token = crypto.randomBytes(24).toString("base64url");
  const learner = await e2eDb().get<{ id: string }>("select id from users where email = 'student@example.com'");
  await e2eDb().run(
    "insert into questionnaire_invitations (id, audience, cause_key, token_hash, recipient_id, used, created_at) values (?, 'learner', ?, ?, ?, 0, ?)",
    crypto.randomUUID(),
    `e2e:${token}`,
    crypto.createHash("sha256").update(token).digest("hex"),
    learner!.id,
    new Date(Date.now() - days * 86_400_000).toISOString(),
  );
  return token;
}

test("an expired questionnaire link shows a clear page and no form; a live one shows the questions", NO_FORM, async ({ page }) => {
  const expired = await page.goto(`/questionnaire/${await invitationMadeDaysAgo(QUESTIONNAIRE_LINK_DAYS + 1)}`);
  expect(expired?.status()).toBe(410);
  await expect(page.getByRole("heading", { level: 1, name: "This questionnaire link has expired" })).toBeVisible();
  await expect(page.getByText(QUESTIONNAIRE_EXPIRED)).toBeVisible();
  await expect(page.getByRole("button", { name: "Send my answers" })).toHaveCount(0);
  await expectAccessible(page);

  const live = await page.goto(`/questionnaire/${await invitationMadeDaysAgo(QUESTIONNAIRE_LINK_DAYS - 1)}`);
  expect(live?.status()).toBe(200);
  await expect(page.getByRole("button", { name: "Send my answers" })).toBeVisible();
});
