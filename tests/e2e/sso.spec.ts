import { DEMO, expect, expectMessage, makeAdmin, test } from "./fixtures";

/**
 * Staff single sign-on in a browser, against the real OpenID provider Playwright starts
 * (tests/e2e/oidc-provider-server.ts): the button on /login is a plain link, so the journey is
 * the same with JavaScript and without.
 */
test.describe("single sign-on", () => {
  test("a learner is refused with a message; an administrator whose provider reports a second factor signs in", async ({ page, js }) => {
    const atProvider = async (email: string, amr: string) => {
      await page.goto("/login");
      await page.getByRole("link", { name: "Sign in with Test IdP" }).click();
      await expect(page.getByRole("heading", { name: "Test identity provider" })).toBeVisible();
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByLabel("Methods (amr)").fill(amr);
      await page.getByRole("button", { name: "Continue" }).click();
    };

    await atProvider(DEMO.student.email, "pwd mfa");
    await expect(page).toHaveURL(/\/login$/);
    await expectMessage(page, js, "Sign-in with Test IdP is for trainers and administrators");

    // the provider remembers who signed in there (its cookies share localhost with the portal's)
    await page.context().clearCookies();
    const admin = await makeAdmin();
    await atProvider(admin, "pwd mfa");
    await expect(page).toHaveURL(/\/admin\/overview$/);
    await expectMessage(page, js, "Login successful!");
    await page.goto("/admin/staff");
    await expect(page.getByRole("heading", { name: "Single sign-on" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Require sign-in with Test IdP" })).toBeVisible();
  });
});
