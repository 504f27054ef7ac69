import crypto from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

export const DEMO = {
  student: { email: "student@example.com", password: "password123", name: "Jordan Mitchell" },
  trainer: { email: "trainer@example.com", password: "password123", name: "Sam Whitfield" },
  admin: { email: "admin@example.com", password: "password123", name: "Alex Morgan" },
} as const;

/**
 * Each test is its own client (a random X-Forwarded-For the e2e server trusts), so sign-in
 * throttling in one test never leaks into another. `js` tells which project runs.
 */
export const test = base.extend<{ js: boolean }>({
  js: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
  extraHTTPHeaders: async ({}, use) => {
    const b = crypto.randomBytes(3);
    await use({ "X-Forwarded-For": `10.${b[0]}.${b[1]}.${b[2]}` });
  },
});

export { expect };

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}@test.example`;
}

/** Signs in through the form and waits for the role's landing page. */
export async function signIn(page: Page, email: string, password = "password123") {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

/** Registers a student through the registration form's endpoint; returns the credentials. */
export async function registerStudent(page: Page, fullName = "Test Student") {
  const email = uniqueEmail("student");
  const response = await page.request.post("/register", {
    form: { full_name: fullName, email, password: "password123", confirm_password: "password123", role: "student" },
    maxRedirects: 0,
  });
  expect(response.status(), "registration redirects to /login").toBe(302);
  return { email, password: "password123", name: fullName };
}

/**
 * Fails with the list of WCAG 2 A/AA violations on the current page. axe runs inside the page,
 * so it runs in the JavaScript project only; the no-JS project renders the same server HTML.
 */
export async function expectAccessible(page: Page) {
  if (base.info().project.use.javaScriptEnabled === false) return;
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary, "axe-core violations").toEqual([]);
}

/**
 * The message of the last action: a sonner toast with JavaScript, the in-page status region
 * without it.
 */
export async function expectMessage(page: Page, js: boolean, text: string | RegExp) {
  if (js) {
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: text }).first()).toBeVisible();
  } else {
    await expect(page.getByRole("status").or(page.getByRole("alert")).filter({ hasText: text }).first()).toBeVisible();
  }
}
