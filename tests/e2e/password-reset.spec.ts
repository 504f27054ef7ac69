import type { APIRequestContext, Page } from "@playwright/test";
import { resetLinkIn } from "../support/eml";
import { e2eDb } from "./e2e-db";
import { expect, expectMessage, registerStudent, signIn, test, uniqueEmail } from "./fixtures";
import { mailsTo } from "./mailed-link";

const NEUTRAL = "If an account exists for that email, a reset link has been sent.";
const DONE = "Your password has been reset. Please sign in with your new password.";

/** Waits for the `count`-th reset email to `email` and returns its link. */
async function resetLink(email: string, count = 1): Promise<string> {
  await expect.poll(() => mailsTo(email).length, { message: `reset email ${count} to ${email}` }).toBeGreaterThanOrEqual(count);
  const link = resetLinkIn(mailsTo(email)[count - 1]!);
  expect(link, "the email carries a reset link").toBeTruthy();
  return link!;
}

/** Asks for a reset through the landing page's modal, as a visitor would. */
async function requestReset(page: Page, js: boolean, email: string) {
  await page.goto("/");
  await page.getByRole("link", { name: "Reset Password" }).click();
  const dialog = page.getByRole("dialog", { name: "Reset Password" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectMessage(page, js, NEUTRAL);
}

async function chooseNewPassword(page: Page, password: string, confirm = password) {
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Confirm new password").fill(confirm);
  await page.getByRole("button", { name: "Reset Password" }).click();
}

async function expectSignInFails(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" }).first()).toBeVisible();
}

async function postResetRequest(request: APIRequestContext, email: string) {
  return request.post("/forgot-password", { form: { email }, maxRedirects: 0 });
}

test.describe("password reset", () => {
  test("a user who forgot their password resets it from the landing page and signs in with the new one", async ({ page, js }) => {
    const student = await registerStudent(page, "Forgetful Fran");
    await requestReset(page, js, student.email);

    const link = await resetLink(student.email);
    expect(new URL(link).origin).toBe(new URL(page.url()).origin);
    const message = mailsTo(student.email)[0]!;
    expect(message.headers.subject).toBe("Reset your Summit Crane & Rigging Training password");
    // anyone may ask for this mail, and the name was typed by whoever registered the address: it greets nobody by name
    expect(message.text).toContain("Hello there,");
    expect(message.text).not.toContain("Forgetful");

    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
    await expect(page.getByText(student.email)).toBeVisible();

    await chooseNewPassword(page, "abc", "abc");
    await expect(page.getByText("Password must be at least 6 characters").first()).toBeVisible();
    await chooseNewPassword(page, "brand-new-1", "brand-new-2");
    await expect(page.getByText("Passwords do not match").first()).toBeVisible();
    await chooseNewPassword(page, "brand-new-1");

    await expect(page).toHaveURL(/\/login$/);
    await expectMessage(page, js, DONE);
    await expectSignInFails(page, student.email, student.password);
    await signIn(page, student.email, "brand-new-1");
    await expect(page).toHaveURL(/\/student\/overview$/);
  });

  test("a reset ends every session and API token of the user", async ({ page, request }) => {
    const student = await registerStudent(page, "Signed In Sam");
    await signIn(page, student.email);
    const session = (await page.context().cookies()).find((c) => c.name === "__session");
    expect(session, "signed in").toBeTruthy();
    const login = await request.post("/api/auth/login", { data: { email: student.email, password: student.password } });
    expect(login.status()).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const bearer = { Authorization: `Bearer ${access_token}` };
    expect((await request.get("/api/auth/me", { headers: bearer })).status()).toBe(200);

    expect((await postResetRequest(request, student.email)).status()).toBe(302);
    await page.goto(await resetLink(student.email));
    await chooseNewPassword(page, "after-reset-1");
    await expect(page).toHaveURL(/\/login$/);

    const withOldCookie = await request.get("/student/overview", {
      headers: { Cookie: `__session=${session!.value}` },
      maxRedirects: 0,
    });
    expect(withOldCookie.status()).toBe(302);
    expect(withOldCookie.headers()["location"]).toMatch(/^\/login/);
    expect((await request.get("/api/auth/me", { headers: bearer })).status()).toBe(401);
  });

  test("a link works once; afterwards it says so and offers a new one", async ({ page }) => {
    const student = await registerStudent(page, "Once Only");
    await postResetRequest(page.request, student.email);
    const link = await resetLink(student.email);
    await page.goto(link);
    await chooseNewPassword(page, "first-change");
    await expect(page).toHaveURL(/\/login$/);

    const again = await page.goto(link);
    expect(again?.status()).toBe(410);
    await expect(page.getByRole("heading", { level: 1, name: "This reset link has already been used" })).toBeVisible();
    await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
    await page.getByRole("link", { name: "Request a new link" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole("dialog", { name: "Reset Password" })).toBeVisible();
  });

  test("the same link submitted from a stale page changes nothing a second time", async ({ page, browser, js }) => {
    const student = await registerStudent(page, "Two Tabs");
    await postResetRequest(page.request, student.email);
    const link = await resetLink(student.email);
    const other = await browser.newPage({ javaScriptEnabled: js });
    await page.goto(link);
    await other.goto(link);
    await chooseNewPassword(page, "winner-pass");
    await expect(page).toHaveURL(/\/login$/);
    await chooseNewPassword(other, "loser-pass");
    await expect(other.getByRole("heading", { level: 1, name: "This reset link has already been used" })).toBeVisible();
    await other.close();
    await expectSignInFails(page, student.email, "loser-pass");
    await signIn(page, student.email, "winner-pass");
    await expect(page).toHaveURL(/\/student\/overview$/);
  });

  test("asking again keeps the earlier link working (the request may be a stranger's); using one ends the other", async ({ page }) => {
    const student = await registerStudent(page, "Asks Twice");
    await postResetRequest(page.request, student.email);
    const first = await resetLink(student.email, 1);
    await postResetRequest(page.request, student.email);
    const second = await resetLink(student.email, 2);
    expect(second).not.toBe(first);
    await page.goto(first);
    await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
    await page.goto(second);
    await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
    await chooseNewPassword(page, "Fresh-Start-Rigging-42");
    await expect(page).toHaveURL(/\/login$/);
    const stale = await page.goto(first);
    expect(stale?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "This reset link is not valid" })).toBeVisible();
  });

  test("an expired link says so and changes nothing", async ({ page }) => {
    const student = await registerStudent(page, "Late Larry");
    await postResetRequest(page.request, student.email);
    const link = await resetLink(student.email);
    await page.goto(link);
    await e2eDb().run(
      `update password_reset_tokens set expires_at = ? where user_id = (select id from users where email = ?)`,
      new Date(Date.now() - 60_000).toISOString(),
      student.email,
    );
    await chooseNewPassword(page, "too-late-1");
    await expect(page.getByRole("heading", { level: 1, name: "This reset link has expired" })).toBeVisible();
    await expect(page.getByText("Your password has not been changed.")).toBeVisible();
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1, name: "This reset link has expired" })).toBeVisible();
    await signIn(page, student.email, student.password);
    await expect(page).toHaveURL(/\/student\/overview$/);
  });

  test("an unknown link gets a clear message and a way to ask again, accessibly", async ({ page }) => {
    const response = await page.goto("/reset-password/not-a-real-token-at-all-0123456789");
    expect(response?.status()).toBe(404);
    expect(response?.headers()["cache-control"]).toContain("no-store");
    await expect(page.getByRole("heading", { level: 1, name: "This reset link is not valid" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Request a new link" })).toHaveAttribute("href", "/forgot-password");
    await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "strict-origin");
    const post = await page.request.post("/reset-password/not-a-real-token-at-all-0123456789", {
      form: { password: "whatever1", confirm_password: "whatever1" },
    });
    expect(post.status()).toBe(404);
  });

  test("the answer never tells whether an email has an account, and no mail goes to strangers", async ({ page, js }) => {
    const student = await registerStudent(page, "Known Kim");
    const stranger = uniqueEmail("stranger");
    const known = await postResetRequest(page.request, student.email);
    const unknown = await postResetRequest(page.request, stranger);
    expect(known.status()).toBe(unknown.status());
    expect(known.headers()["location"]).toBe(unknown.headers()["location"]);
    await requestReset(page, js, stranger);
    await resetLink(student.email);
    await page.waitForTimeout(500);
    expect(mailsTo(stranger)).toHaveLength(0);
  });

  test("requests over the limit per email: the answer stays the same, the mail stops", async ({ page, js }) => {
    const student = await registerStudent(page, "Spammed Sue");
    for (let i = 0; i < 4; i++) await requestReset(page, js, student.email);
    await resetLink(student.email, 3);
    await page.waitForTimeout(500);
    expect(mailsTo(student.email)).toHaveLength(3);
    // The latest link sent still works.
    await page.goto(await resetLink(student.email, 3));
    await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  });

  test("requests over the limit per client: the client is told to wait (429), the mail stops", async ({ page }) => {
    const student = await registerStudent(page, "Other Client");
    for (let i = 0; i < 10; i++) {
      const response = await postResetRequest(page.request, uniqueEmail(`probe${i}`));
      expect(response.status()).toBe(302);
    }
    const refused = await postResetRequest(page.request, uniqueEmail("probe-late"));
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
    await page.goto("/");
    await page.getByRole("link", { name: "Reset Password" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset Password" });
    await dialog.getByLabel("Email").fill(student.email);
    await dialog.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(dialog.getByText("Too many password reset requests. Please wait 60 minutes and try again.").first()).toBeVisible();
    await page.waitForTimeout(1000);
    expect(mailsTo(student.email)).toHaveLength(0);
  });
});
