import fs from "node:fs";
import { authenticatorCode, expect, expectAccessible, makeAdmin, openPhoneMenu, signIn, signInAt, signOut, test } from "./fixtures";
import { mailsTo } from "./mailed-link";

test.describe("two-step sign-in and the audit trail", () => {
  test("an administrator sets up an authenticator from the page, signs in again with a code, and finds both sign-ins in the audit trail", async ({
    page,
    js,
  }) => {
    const email = await makeAdmin();
    await signIn(page, email);
    await page.getByRole("link", { name: "Security" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Account security" })).toBeVisible();
    await page.getByRole("button", { name: "Set up two-step sign-in" }).click();
    await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAccessible(page);

    // a wrong code is refused beside the field
    const confirm = page.getByRole("form", { name: "Confirm the authenticator app" });
    await confirm.getByLabel("Code from the app").fill("000000");
    await confirm.getByLabel("Current password").fill("password123");
    await confirm.getByRole("button", { name: "Turn on two-step sign-in" }).click();
    await expect(page.getByText("That code is not right").first()).toBeVisible();

    // the confirmation asks for the current password too, beside its field
    const setUpAt = Date.now();
    await confirm.getByLabel("Code from the app").fill(authenticatorCode(secret, setUpAt));
    await confirm.getByLabel("Current password").fill("");
    await confirm.getByRole("button", { name: "Turn on two-step sign-in" }).click();
    // the error summary at the top of this form links to the field; the field says it too
    await expect(confirm.getByRole("link", { name: "Enter your current password" })).toHaveAttribute("href", "#confirm-current_password");
    await expect(confirm.locator("#confirm-current_password-error")).toHaveText("Enter your current password");
    await confirm.getByLabel("Code from the app").fill(authenticatorCode(secret, setUpAt));
    await confirm.getByLabel("Current password").fill("password123");
    await confirm.getByRole("button", { name: "Turn on two-step sign-in" }).click();
    const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    await expectAccessible(page);
    // on a phone the codes read one a line; the file the page offers (with JavaScript or
    // without) and the copy (with JavaScript) hold exactly the codes shown
    await page.setViewportSize({ width: 360, height: 740 });
    const listed = await codes.allTextContents();
    const tops = await codes.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().top));
    expect(new Set(tops).size, "one code a line").toBe(10);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download as text" }).click();
    const file = fs.readFileSync((await (await download).path())!, "utf8");
    expect(file.match(/^[^\s]+$/gm)).toEqual(listed);
    if (js) {
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByRole("button", { name: "Copy codes" }).click();
      await expect(page.getByText("Recovery codes copied").first()).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(file);
    } else {
      await expect(page.getByRole("button", { name: "Copy codes" })).toHaveCount(0);
    }
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);

    // the password alone no longer signs in: the second step has its own page
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("password123");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/login\/two-step/);
    await expect(page.getByRole("heading", { level: 1, name: "Two-step sign-in" })).toBeVisible();
    // the next step's code: the set-up used this step's, and a code works once
    await page.getByLabel("Code").fill(authenticatorCode(secret, setUpAt + 30_000));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/admin/);
    if (js) await expect(page.getByText("Login successful!").first()).toBeVisible();

    await openPhoneMenu(page); // still at a phone's width: the portal's pages are behind its menu
    await page.getByRole("link", { name: "Audit", exact: true }).filter({ visible: true }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Audit trail" })).toBeVisible();
    await page.getByLabel("Person").fill(email);
    await page.getByLabel("Action").selectOption("sign_in.succeeded");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/action=sign_in.succeeded/);
    const rows = page.getByRole("table", { name: "Audit trail entries, newest first" }).getByRole("row", { name: /Signed in/ });
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText("password and authenticator");
    await expect(rows.last()).not.toContainText("authenticator");
    const csvHref = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
    expect(csvHref).toContain("action=sign_in.succeeded");
    const csv = await page.request.get(csvHref!);
    expect(csv.status()).toBe(200);
    expect((await csv.text()).trim().split("\r\n")).toHaveLength(3);
    await signOut(page);
  });

  test("turning two-step sign-in off asks for the password and a current code, signs out other browsers and mails the owner; the second step works once", async ({
    page,
    browser,
    js,
    clientHeaders,
  }) => {
    const email = await makeAdmin();
    await signInAt(page, email, "/account/security");
    await page.getByRole("button", { name: "Set up two-step sign-in" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    const confirm = page.getByRole("form", { name: "Confirm the authenticator app" });
    const t0 = Date.now();
    await confirm.getByLabel("Code from the app").fill(authenticatorCode(secret, t0 - 30_000));
    await confirm.getByLabel("Current password").fill("password123");
    await confirm.getByRole("button", { name: "Turn on two-step sign-in" }).click();
    await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);

    // a second browser signs in with the password and a code; its step cookie is kept to replay later
    const other = await browser.newContext({ javaScriptEnabled: js, baseURL: test.info().project.use.baseURL, extraHTTPHeaders: clientHeaders });
    const otherPage = await other.newPage();
    await otherPage.goto("/login");
    await otherPage.getByLabel("Email").fill(email);
    await otherPage.getByLabel("Password").fill("password123");
    await otherPage.getByRole("button", { name: "Sign In" }).click();
    await expect(otherPage).toHaveURL(/\/login\/two-step/);
    const stepCookies = (await other.cookies()).filter((c) => c.name.endsWith("-step"));
    expect(stepCookies).toHaveLength(1);
    await otherPage.getByLabel("Code").fill(authenticatorCode(secret, t0));
    await otherPage.getByRole("button", { name: "Verify" }).click();
    await expect(otherPage).toHaveURL(/\/admin/);

    // replaying the step cookie in a third browser sends it back to sign in, with a message
    const replay = await browser.newContext({ javaScriptEnabled: js, baseURL: test.info().project.use.baseURL, extraHTTPHeaders: clientHeaders });
    await replay.addCookies(stepCookies);
    const replayPage = await replay.newPage();
    await replayPage.goto("/login/two-step");
    await expect(replayPage).toHaveURL(/\/login$/);
    await expect(replayPage.getByText("This sign-in has already been completed").first()).toBeVisible();
    await replay.close();

    // turning it off: the session alone is not enough, a wrong code is refused beside its field
    await page.goto("/account/security");
    const turnOff = page.getByRole("form", { name: "Turn off two-step sign-in" });
    await turnOff.getByRole("button", { name: "Turn off two-step sign-in" }).click();
    await expect(turnOff.getByRole("link", { name: "Enter your current password" })).toHaveAttribute("href", "#turn-off-current_password");
    await expect(turnOff.locator("#turn-off-current_password-error")).toHaveText("Enter your current password");
    await turnOff.getByLabel("Current password").fill("password123");
    await turnOff.getByLabel("Code from your authenticator app").fill("000000");
    await turnOff.getByRole("button", { name: "Turn off two-step sign-in" }).click();
    await expect(turnOff.getByText("That code is not right").first()).toBeVisible();
    await expect(page.getByText("Two-step sign-in is on.")).toBeVisible();

    await turnOff.getByLabel("Current password").fill("password123");
    await turnOff.getByLabel("Code from your authenticator app").fill(authenticatorCode(secret, t0 + 30_000));
    await turnOff.getByRole("button", { name: "Turn off two-step sign-in" }).click();
    await expect(page.getByRole("button", { name: "Set up two-step sign-in" })).toBeVisible();
    await expectAccessible(page);

    // the other browser is signed out; the owner has a mail saying what changed
    await otherPage.goto("/admin");
    await expect(otherPage).toHaveURL(/\/login/);
    await other.close();
    // queued with the change, delivered by the server's runner a moment later
    const mails = () => mailsTo(email).filter((m) => m.headers.subject?.startsWith("Two-step sign-in was turned off"));
    await expect.poll(() => mails().length, { timeout: 20_000 }).toBe(1);
  });
});
