import { phoneCheck, type Misfit } from "./phone-fit";
import { authenticatorCode, DEMO, expect, expectToastBelowHeader, openPhoneMenu, registerStudent, signInAt, signInWithForm, test } from "./fixtures";

/**
 * Every page fits a phone: at 360 and 390 px wide no page of any role scrolls sideways, no
 * control lies outside the screen (a wide table scrolls inside its own labelled, focusable box
 * instead), and every button and field is at least 44 px tall (phoneCheck, tests/e2e/phone-fit.ts).
 * The page walk holds every page of every role to it, with JavaScript and without
 * (walk.spec.ts); here are the steps of a journey that no address opens (two-step sign-in's),
 * and what a toast and an error summary do on a phone.
 */

function expectFits(found: Misfit[]) {
  const report = found.map(({ url, width, problems }) => `${url}${width ? ` at ${width} px` : ""}:\n  ${problems.join("\n  ")}`);
  expect(report, "pages that do not fit a phone").toEqual([]);
}

test.describe("a phone: what the page walk cannot open", () => {
  test.describe.configure({ mode: "parallel" });

  test("a toast sits under the header: the Menu opens while it shows", async ({ page, js }) => {
    test.skip(!js, "toasts are the JavaScript project's: without it the message is in the page");
    await page.setViewportSize({ width: 360, height: 740 });
    // through the form, as a person signs in: the toaster mounts on the sign-in page, whose header
    // is not the portal's, and the page changes under it without a reload
    await signInWithForm(page, DEMO.student.email);
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Login successful!" });
    await expect(toast).toBeVisible();
    await expectToastBelowHeader(page);
    // a tap on the Menu reaches it, the toast still showing
    const menu = page.locator("header summary").filter({ hasText: "Menu" });
    await menu.click({ timeout: 5_000 });
    await expect(menu.locator("xpath=..")).toHaveJSProperty("open", true);
    await expect(toast).toBeVisible();
  });

  test("two-step sign-in's pages: setting up, the recovery codes and the second step", async ({ page, js }) => {
    const student = await registerStudent(page, "Robin Phone");
    await signInAt(page, student.email, "/account/security");
    await page.getByRole("button", { name: "Set up two-step sign-in" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    const found = await phoneCheck(page, js, true);
    const confirm = page.getByRole("form", { name: "Confirm the authenticator app" });
    const setUpAt = Date.now();
    await confirm.getByLabel("Code from the app").fill(authenticatorCode(secret, setUpAt));
    await confirm.getByLabel("Current password").fill(student.password);
    await confirm.getByRole("button", { name: "Turn on two-step sign-in" }).click();
    await expect(page.getByRole("list", { name: "Recovery codes" })).toBeVisible();
    found.push(...(await phoneCheck(page, js, true)));
    await openPhoneMenu(page);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel("Email").fill(student.email);
    await page.getByLabel("Password").fill(student.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/login\/two-step/);
    found.push(...(await phoneCheck(page, js, true)));
    expectFits(found);
  });

  test("a failed save in the enrolment-details dialog shows its error summary where the reader is, linked to the bad field", async ({ page, js }) => {
    test.skip(!js, "without JavaScript the answer is a new page, opened at its top");
    await page.setViewportSize({ width: 1366, height: 900 });
    await signInAt(page, DEMO.student.email, "/student/profile/enrollment");
    const dialog = page.getByRole("dialog", { name: "My enrolment details" });
    await dialog.getByLabel("Postcode").fill("12");
    await dialog.getByRole("button", { name: "Save enrolment details" }).click();
    // the dialog's error summary takes focus where the reader is; its link leads to the field
    const summary = dialog.locator("[data-error-summary]");
    await expect(summary).toBeFocused();
    await expect(summary).toBeInViewport();
    await expect(summary.getByRole("link", { name: /Enter a 4-digit postcode/ })).toHaveAttribute("href", "#postcode");
  });
});
