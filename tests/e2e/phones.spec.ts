import type { Page } from "@playwright/test";
import { e2eDb } from "./e2e-db";
import { misfits, PHONE_WIDTHS } from "./phone-fit";
import {
  accessibilityViolations,
  authenticatorCode,
  DEMO,
  expect,
  expectToastBelowHeader,
  openPhoneMenu,
  registerStudent,
  startSignedIn,
  signInAt,
  signInWithForm,
  test,
  WCAG_TAGS,
} from "./fixtures";

/**
 * Every page fits a phone: at 360 and 390 px wide no page of any role scrolls sideways, no
 * control lies outside the screen (a wide table scrolls inside its own labelled, focusable box
 * instead), and every button and field is at least 44 px tall (misfits, tests/e2e/phone-fit.ts).
 * Here with JavaScript, where the page is the hydrated one and a toast may show; without
 * JavaScript the page walk measures every page of every role the same way (walk.spec.ts), so
 * the walks below run in the js project and the journeys through pages no link reaches in both.
 *
 * axe reads each page once, in the page walk (walk.spec.ts, every page at desktop width). What a
 * phone shows in its place is the page's frame, not its content: here axe reads, at 390 px, each
 * walk's first page with the portal's Menu open, and every page whose table stacks into blocks
 * (the `table-stack` rule of app/tailwind.css), which is the one layout of content that changes
 * at phone width (docs/decisions/022-phones.md, "axe once per page").
 *
 * The pages are found the way a person finds them: from each role's landing page, every link
 * the pages show is followed once per route (ids and query strings aside), so a page added
 * later is checked without being listed here. Each role's list of routes that must be reached
 * keeps the walk from silently shrinking when a link moves.
 */

/** Links that leave the pages: files, the /api, calendar feeds, and sign-out. */
const NOT_A_PAGE = /^\/(api|calendar)\/|\.(csv|zip|pdf|ics|txt|json)$|\/(pdf|download)$|^\/logout$|\/avetmiss\//;

/** A route's shape: ids (UUIDs, certificate codes, numbers) become ":id". */
function routeOf(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) => (/^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(segment) || /^\d+$/.test(segment) || /^[A-Z0-9]{10,}$/.test(segment) ? ":id" : segment))
    .join("/");
}

interface Misfit {
  url: string;
  width: number;
  problems: string[];
}

/**
 * What does not fit on the page shown, at each width, and, when `axe` is set, what axe finds on it
 * at the last width with the phone's Menu open (with JavaScript: axe runs in the page).
 */
async function check(page: Page, js: boolean, axe = true): Promise<Misfit[]> {
  const url = new URL(page.url()).pathname;
  const found: Misfit[] = [];
  for (const width of PHONE_WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    // a phone never changes width: what a resize sets moving (a toast sliding to its phone
    // place) is measured where it comes to rest (without JavaScript no toast moves, and the
    // page's clock for frames does not run)
    if (js)
      await page.evaluate(async () => {
        // two frames: a transition the resize starts is running by then
        for (let frame = 0; frame < 2; frame++) await new Promise((done) => requestAnimationFrame(done));
        const moving = document.getAnimations().filter((animation) => animation.effect?.getTiming().iterations !== Infinity);
        await Promise.all(moving.map((animation) => animation.finished.catch(() => undefined)));
      });
    const problems = await misfits(page);
    if (problems.length) found.push({ url, width, problems });
  }
  if (js && axe) {
    await openPhoneMenu(page);
    const violations = await accessibilityViolations(page, WCAG_TAGS);
    if (violations.length) found.push({ url, width: 0, problems: violations.map((v) => `axe: ${v}`) });
    // the Menu closed again, as a tap outside it leaves it: the journey goes on under it
    await page.evaluate(() => document.querySelector("header details[open]")?.removeAttribute("open"));
  }
  return found;
}

/** Visits `start`, then every page its links lead to (once per route) that `keep` accepts; checks each at every width. */
async function walk(page: Page, js: boolean, start: string[], keep: (pathname: string) => boolean) {
  const queue = [...start];
  const routes = new Map<string, string>();
  const found: Misfit[] = [];
  let portal: string | undefined; // the first page's origin
  for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
    const response = await page.goto(url);
    // a link that has run out (a reset token) answers with its own page and a 4xx status
    expect(response?.status(), `${url} answers`).toBeLessThan(500);
    // a link that leaves the portal (signing in with the organisation's identity provider) is not its page
    portal ??= new URL(page.url()).origin;
    if (new URL(page.url()).origin !== portal) continue;
    const landed = new URL(page.url()).pathname;
    if (routes.has(routeOf(landed)) && routeOf(landed) !== routeOf(new URL(url, page.url()).pathname)) continue; // a redirect to a page already seen
    routes.set(routeOf(landed), landed);
    // axe at phone width: the walk's first page (the portal's frame and its Menu) and every stacked table
    const axe = routes.size === 1 || (await page.locator(".table-stack").count()) > 0;
    found.push(...(await check(page, js, axe)));
    const hrefs = await page.locator("a[href]:not([download])").evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    for (const href of hrefs) {
      const target = new URL(href);
      if (target.origin !== new URL(page.url()).origin || NOT_A_PAGE.test(target.pathname) || !keep(target.pathname)) continue;
      const route = routeOf(target.pathname);
      if (routes.has(route) || queue.some((queued) => routeOf(new URL(queued, page.url()).pathname) === route)) continue;
      queue.push(target.pathname);
    }
  }
  return { routes: [...routes.keys()].sort(), found };
}

function expectFits(found: Misfit[]) {
  const report = found.map(({ url, width, problems }) => `${url}${width ? ` at ${width} px` : ""}:\n  ${problems.join("\n  ")}`);
  expect(report, "pages that do not fit a phone").toEqual([]);
}

const WALKED_WITHOUT_JS = "without JavaScript the page walk measures every page at both widths";

test.describe("every page fits a phone", () => {
  test.describe.configure({ mode: "parallel" });

  test("public pages, sign-in, registration and verification", async ({ page, js }) => {
    test.skip(!js, WALKED_WITHOUT_JS);
    // every course page the catalogue links to is walked too: as long as the signed-in walks
    // on a loaded machine (it took 60 s beside the rest of npm test, 34 s alone)
    test.setTimeout(180_000);
    const certificate = await e2eDb().get<{ verification_code: string }>("select verification_code from certificates where revoked_at is null limit 1");
    const { routes, found } = await walk(
      page,
      js,
      ["/", "/courses", "/login", "/register", "/forgot-password", "/verify", `/verify/${certificate!.verification_code}`, "/reset-password/no-such-token"],
      (pathname) => !/^\/(student|trainer|admin|account|dashboard)/.test(pathname),
    );
    expect(routes).toEqual(expect.arrayContaining(["/", "/courses", "/login", "/register", "/forgot-password", "/verify", "/verify/:id"]));
    expectFits(found);
  });

  // The admin's pages are many: two walks, each over part of them (by the section after /admin/),
  // run beside each other rather than one walk past its time on a busy machine.
  const firstHalf = (pathname: string) => (pathname.split("/")[2] ?? "") < "f";
  const walks = [
    { role: "student", title: "the student's pages", keep: (p: string) => p.startsWith("/student") || p.startsWith("/account") },
    { role: "trainer", title: "the trainer's pages", keep: (p: string) => p.startsWith("/trainer") || p.startsWith("/account") },
    { role: "admin", title: "the admin's pages, sections A to E", keep: (p: string) => (p.startsWith("/admin") && firstHalf(p)) || p.startsWith("/account") },
    { role: "admin", title: "the admin's pages, sections F to Z", keep: (p: string) => p.startsWith("/admin") && !firstHalf(p) },
  ] as const;
  for (const { role, title, keep } of walks) {
    test(title, async ({ page, js }) => {
      test.skip(!js, WALKED_WITHOUT_JS);
      test.setTimeout(180_000);
      // signed in with no page loaded: the walk's first load is the role's landing page
      await startSignedIn(page, DEMO[role].email);
      const { routes, found } = await walk(page, js, [`/${role}`, "/account/security"], keep);
      console.log(title, routes.join(" "));
      expectFits(found);
    });
  }

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
    const found = await check(page, js);
    const confirm = page.getByRole("form", { name: "Confirm the authenticator app" });
    const setUpAt = Date.now();
    await confirm.getByLabel("Code from the app").fill(authenticatorCode(secret, setUpAt));
    await confirm.getByLabel("Current password").fill(student.password);
    await confirm.getByRole("button", { name: "Turn on two-step sign-in" }).click();
    await expect(page.getByRole("list", { name: "Recovery codes" })).toBeVisible();
    found.push(...(await check(page, js)));
    await openPhoneMenu(page);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel("Email").fill(student.email);
    await page.getByLabel("Password").fill(student.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/login\/two-step/);
    found.push(...(await check(page, js)));
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
