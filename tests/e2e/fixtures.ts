import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { AxeResults, RunOptions } from "axe-core";
import { test as base, expect, type BrowserContext, type Frame, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { USI_ALPHABET, usiFromBody } from "../../app/rules/usi";
import { e2eDb } from "./e2e-db";

export const DEMO = {
  student: { email: "student@example.com", password: "password123", name: "Jordan Mitchell" },
  trainer: { email: "trainer@example.com", password: "password123", name: "Sam Whitfield" },
  admin: { email: "admin@example.com", password: "password123", name: "Alex Morgan" },
} as const;

/**
 * Each test is its own client (a random X-Forwarded-For the e2e server trusts), so sign-in
 * rate limits in one test never leak into another: `clientHeaders` carries that client, and the
 * page's context, the `request` fixture and any second browser a test opens send it. `js` tells
 * which project runs.
 *
 * The tests of a worker share one browser context and its page (`kept`): a new context and its
 * first page cost a renderer started and the app's scripts fetched and compiled cold, a quarter
 * of the browser's CPU for a test that opens two pages (docs/decisions/026, "The tests of a
 * Playwright worker share one page"). What a test leaves on them is cleared when it ends: its
 * listeners and routes, the origin's storage, then its cookies and permissions; other pages it
 * opened are closed, and the page is left on a same-origin image (not about:blank, whose
 * navigation swaps the renderer). The browser's cache stays: the scripts are one build. A test
 * that changes the browser below Playwright's API (a DevTools session's network throttle)
 * opens a context of its own, which it closes.
 */
export const test = base.extend<{ js: boolean; clientHeaders: Record<string, string> }>({
  js: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it needs none
  clientHeaders: async ({}, use) => {
    await use(newClientHeaders());
  },
  // a test whose context options (a project's or a spec's test.use) differ from the kept
  // context's gets a new one; the viewport is set on the page for each test, and a storage state
  // (cookies the clearing below would drop) makes a context for its test alone
  context: async (
    { browser, clientHeaders, javaScriptEnabled, baseURL, locale, timezoneId, colorScheme, userAgent, storageState, isMobile, hasTouch, deviceScaleFactor },
    use,
  ) => {
    const key = JSON.stringify([javaScriptEnabled, baseURL, locale, timezoneId, colorScheme, userAgent, isMobile, hasTouch, deviceScaleFactor]);
    const ownState = storageState !== undefined;
    if (!kept || kept.key !== key || ownState || !browser.contexts().includes(kept.context)) {
      await kept?.context.close().catch(() => undefined);
      // inside a test, Playwright gives browser.newContext() that test's context options (the
      // project's and test.use's: JavaScript off in no-js), so the key above is what decides
      kept = { key, context: await browser.newContext(), page: undefined };
    }
    const { context } = kept;
    if (!ownState) await context.clearCookies();
    await context.setExtraHTTPHeaders(clientHeaders);
    await use(context);
    for (const other of context.pages()) if (other !== kept.page) await other.close();
    await context.unrouteAll({ behavior: "ignoreErrors" });
    await context.clearCookies();
    await context.clearPermissions();
  },
  page: async ({ context, viewport, baseURL }, use) => {
    const held = kept!;
    if (!held.page || held.page.isClosed()) held.page = await context.newPage();
    const page = held.page;
    await page.setViewportSize(viewport ?? { width: 1280, height: 720 });
    await use(page);
    if (page.isClosed()) return;
    page.removeAllListeners();
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await page
      .evaluate(() => {
        try {
          localStorage.clear();
          sessionStorage.clear();
        } catch {
          /* a page of no origin (about:blank) has no storage */
        }
      })
      .catch(() => undefined);
    await page.goto(new URL("/favicon.svg", baseURL).toString()).catch(() => undefined);
  },
  request: async ({ playwright, baseURL, clientHeaders }, use) => {
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: clientHeaders });
    await use(request);
    await request.dispose();
  },
});

/** The worker's context and page, kept from test to test (see `test`). */
let kept: { key: string; context: BrowserContext; page: Page | undefined } | undefined;

/** A client of its own: the header a second browser or request context of a test sends. */
export function newClientHeaders(): Record<string, string> {
  const b = crypto.randomBytes(3);
  return { "X-Forwarded-For": `10.${b[0]}.${b[1]}.${b[2]}` };
}

export { expect };

/**
 * For a describe whose tests send HTTP requests alone, with no page: they run once, in the js
 * project. JavaScript is the browser's; the no-JavaScript project would send the same requests
 * and read the same answers.
 */
export function requestsAloneRunOnce() {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "HTTP requests alone: the js project runs them once");
}

/**
 * The tag of a journey that sends no form from its page: it reads pages, follows links,
 * downloads files, or sends its requests with no page. Without JavaScript those are the same
 * server answers the page walk loads on every page (at phone width, through the HTML checker),
 * so the no-JavaScript project leaves them out (playwright.config.ts) and runs every journey
 * that sends a form, where the two projects take different paths.
 */
export const NO_FORM = { tag: "@no-form" };

/** Dates a test types are the portal's: today on the RTO's calendar, not UTC's. */
export { organisationToday } from "../../app/utils/organisation-calendar";

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}@test.example`;
}

/**
 * Signs in as a journey's first step: the form's own post, answered with the session cookie
 * in the page's browser context, then the page it sends the user to. The sign-in form itself,
 * filled and submitted in the browser, is the auth spec's (signInWithForm); every other test
 * starts from the landing page without loading and hydrating /login first.
 */
export async function signIn(page: Page, email: string, password = "password123") {
  await page.goto(await postSignIn(page, email, password));
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

/**
 * Signs in and opens `path` at once: one page load where signIn and a goto make two (a journey
 * that starts on another page than the role's landing page). The landing page is never opened,
 * so the sign-in message waiting for it is dropped: no later visit to it shows one.
 */
export async function signInAt(page: Page, email: string, path: string, password = "password123") {
  await startSignedIn(page, email, password);
  await page.goto(path);
}

/**
 * Signs the page's browser in without loading a page (the next goto is the first load). The
 * sign-in message waiting for the landing page is dropped, as for signInAt.
 */
export async function startSignedIn(page: Page, email: string, password = "password123") {
  await postSignIn(page, email, password);
  await page.context().clearCookies({ name: "__flash" });
}

/** The sign-in form's post; answers where the portal sends the user. */
async function postSignIn(page: Page, email: string, password: string): Promise<string> {
  // On a connection of its own: a kept-alive one the server is closing as idle (after 5 s) may
  // reset a post sent on it, which a browser would send again and this request context does not.
  // A post the server never read is sent once more; signing in twice is two sessions, not harm.
  const post = () => page.request.post("/login", { form: { email, password }, maxRedirects: 0, headers: { Connection: "close" } });
  const response = await post().catch((error: unknown) => {
    if (/ECONNRESET|socket hang up/.test(String(error))) return post();
    throw error;
  });
  const location = response.headers()["location"];
  if (response.status() !== 302 || !location || location.startsWith("/login")) {
    throw new Error(`signing in as ${email} was answered ${response.status()}${location ? ` (to ${location})` : ""}`);
  }
  return location;
}

/** Signs in through the form in the browser and waits for the role's landing page. */
export async function signInWithForm(page: Page, email: string, password = "password123") {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

/** The toast showing comes to rest below the page's header (it slides in from above), so the header's links stay in reach. */
export async function expectToastBelowHeader(page: Page) {
  const bottomOf = async (selector: string) =>
    (await page
      .locator(selector)
      .first()
      .evaluate((e) => e.getBoundingClientRect().bottom)) as number;
  const topOf = async (selector: string) =>
    (await page
      .locator(selector)
      .first()
      .evaluate((e) => e.getBoundingClientRect().top)) as number;
  const header = await bottomOf("header");
  await expect.poll(() => topOf("[data-sonner-toast]"), { message: "the toast's top against the header's bottom" }).toBeGreaterThanOrEqual(header);
}

/** Signs out with the header's button (inside the Menu on a phone) and lands on the sign-in page. */
export async function signOut(page: Page) {
  await openPhoneMenu(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** The code an authenticator app shows for `secret` at `at` (RFC 6238: SHA-1, 6 digits, 30 s). */
export function authenticatorCode(secret: string, at: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: at });
}

/** A well-formed USI no other test student holds. */
export function uniqueUsi(): string {
  let body = "";
  for (const byte of crypto.randomBytes(9)) body += USI_ALPHABET[byte & 31];
  return usiFromBody(body);
}

/** A password registration accepts (common ones such as the demo password are refused). */
export const REGISTRATION_PASSWORD = "Rigging-Kestrel-42";

/**
 * Gives an account the password every test signs in with ("password123", the demo accounts'):
 * registration refuses it as too common, so a registered test account takes the demo
 * student's hash afterwards.
 */
export async function useTestPassword(email: string): Promise<void> {
  await e2eDb().run("update users set password_hash = (select password_hash from users where email = ?) where email = ?", DEMO.student.email, email);
}

/**
 * Registers a student through the registration form's endpoint, with a USI; returns the
 * credentials. The USI counts as verified with the USI Registry (certificates need that)
 * unless `usiVerified` is false.
 */
export async function registerStudent(page: Page, fullName = "Test Student", options: { usiVerified?: boolean } = {}) {
  const email = uniqueEmail("student");
  const usi = uniqueUsi();
  const response = await page.request.post("/register", {
    form: { full_name: fullName, email, password: REGISTRATION_PASSWORD, confirm_password: REGISTRATION_PASSWORD, role: "student", usi },
    // Each registered person is their own client: registration has a rate limit per client, and a
    // test that makes many students is not one person signing up many times.
    headers: newClientHeaders(),
    maxRedirects: 0,
  });
  expect(response.status(), "registration redirects to /login").toBe(302);
  await useTestPassword(email);
  if (options.usiVerified !== false) {
    await e2eDb().run("update users set usi_verified_at = ? where email = ?", new Date().toISOString(), email);
  }
  return { email, password: "password123", name: fullName, usi };
}

/**
 * Fails with the list of WCAG 2 A/AA violations on the current page: for a state the page walk
 * does not read (a dialog open, an error beside its field, a toast, an empty list), since the
 * walk reads every page template as it opens (decision 022). axe runs inside the page,
 * so it runs in the js project only: the no-JS project renders the same server HTML, and the
 * postgres project the same components from the same demo data on the other dialect, as the
 * page walk reads them (decision 026, "axe reads each page once").
 */
export async function expectAccessible(page: Page) {
  if (base.info().project.name !== "js") return;
  expect(await accessibilityViolations(page), "axe-core violations").toEqual([]);
}

/**
 * The page walk's and the phone frame's rules: every WCAG 2.0, 2.1 and 2.2 A and AA rule axe
 * knows, and its best practices (landmarks each named apart, one banner and one footer, headings
 * in order), which cost a read no more time.
 */
export const WALK_AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * The WCAG A/AA violations axe finds on the current page, one line each (rule, help, where): of
 * WCAG 2.0 unless `tags` names more (the page walk adds 2.1, 2.2 and the best practices).
 */
export async function accessibilityViolations(page: Page, tags = ["wcag2a", "wcag2aa"]): Promise<string[]> {
  // A toast sliding in or out is half transparent for a moment, and axe would measure its
  // contrast mid-fade. Let finite animations and transitions finish (a spinner's never does)
  // before each look; a toast may start leaving while axe works, so a violation must still be
  // there on a second look after the page settles. A real one always is.
  const settle = () =>
    page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
  const violations = async () => {
    await settle();
    for (const frame of page.frames()) await putAxeIn(frame);
    // One call in the page runs every frame, as axe's legacy mode does. Every rule still checks
    // every element; only the violations are reported in full: describing each element that
    // passes (its selector, its HTML) was a third of a read's CPU (decision 026). runOnly names
    // the tags, so the rules outside them (the other best practices, the experimental ones) do
    // not run.
    const options: RunOptions = { resultTypes: ["violations"], runOnly: { type: "tag", values: tags } };
    const results = await page.evaluate(
      (runOptions) => (window as unknown as { axe: { run(c: Document, o: RunOptions): Promise<AxeResults> } }).axe.run(document, runOptions),
      options,
    );
    return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  };
  const summary = await violations();
  if (summary.length === 0) return summary;
  await page.waitForTimeout(500);
  return violations();
}

/**
 * axe-core's minified build (650 kB), read once per test worker and put in each document once:
 * a second read of the same document (the Menu opened on a phone) finds it there. axe's own
 * Playwright wrapper sent its unminified source (1.5 MB) twice on every read (once to see that
 * the page runs scripts, again into each frame), and the browser compiled it each time
 * (decision 026, "axe is put in a page once").
 */
let axeSource: string | undefined;
async function putAxeIn(frame: Frame) {
  if (await frame.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === "function")) return;
  axeSource ??= fs.readFileSync(path.resolve("node_modules/axe-core/axe.min.js"), "utf8");
  // frames of the page's own origin only, as the wrapper's legacy mode configured it
  await frame.evaluate(`${axeSource}\n;axe.configure({ allowedOrigins: ["<same_origin>"] });`);
}

/**
 * The message of the last action: a sonner toast with JavaScript, the in-page status region
 * without it. A failure that names fields is the form's error summary (an alert) either way:
 * no toast repeats it over the fields.
 */
export async function expectMessage(page: Page, js: boolean, text: string | RegExp) {
  if (js) {
    await expect(page.locator("[data-sonner-toast]").or(page.getByRole("alert")).filter({ hasText: text }).first()).toBeVisible();
  } else {
    await expect(page.getByRole("status").or(page.getByRole("alert")).filter({ hasText: text }).first()).toBeVisible();
  }
}

/** A fresh administrator with the demo password (the server runs the demo, where two-step is offered, not required). */
export async function makeAdmin(): Promise<string> {
  const email = uniqueEmail("admin-2fa");
  const now = new Date().toISOString();
  await e2eDb().run(
    `insert into users (id, email, full_name, password_hash, role, is_active, approval_status, created_at, updated_at)
     select ?, ?, 'Casey Two-Step', password_hash, 'admin', 1, 'approved', ?, ? from users where email = ?`,
    crypto.randomUUID(),
    email,
    now,
    now,
    DEMO.admin.email,
  );
  return email;
}

/** On a phone the portal's pages and sign-out sit in the header's Menu (a <details>): opens it when it is shown. */
export async function openPhoneMenu(page: Page) {
  const menu = page.locator("header summary").filter({ hasText: "Menu" });
  if ((await menu.isVisible()) && !(await menu.locator("xpath=..").evaluate((d) => (d as HTMLDetailsElement).open))) await menu.click();
}
