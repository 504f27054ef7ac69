import { e2eDb, insertClass, insertCourse, userId } from "./e2e-db";
import {
  DEMO,
  expect,
  expectAccessible,
  expectMessage,
  organisationToday,
  registerStudent,
  REGISTRATION_PASSWORD,
  signIn,
  signInAt,
  test,
  uniqueEmail,
  NO_FORM,
} from "./fixtures";
import { addDays } from "../../app/utils/organisation-calendar";
import { FEED_MADE, FEED_RENEWED, OFFER_ACCEPTED, classDates } from "../../app/schemas/class-text";
import { formatDateTime } from "../../app/utils/format";

/**
 * A learner's way through the portal: a visitor picks a course on its public page, registers
 * and comes back to it; a seat held on a waitlist comes first; the calendar feed's address.
 */

/**
 * Whether the page's content fits a phone's width; `whole` also the page around it (the public
 * pages; the portal's frame is checked with the portal's layout).
 */
async function fitsAPhone(page: import("@playwright/test").Page, whole = true) {
  await page.setViewportSize({ width: 360, height: 780 });
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll("main *")]
      .filter((e) => e.getBoundingClientRect().right > 361)
      .map((e) => `${e.tagName}.${e.className}`)
      .slice(0, 5),
  );
  expect(wide, "elements wider than a phone").toEqual([]);
  if (whole) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function signInHere(page: import("@playwright/test").Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

test.describe("a visitor who picks a course", () => {
  test("reads its public page, signs up, and comes back to enrol; signing in again comes back too", async ({ page }) => {
    const course = await insertCourse();
    const start = addDays(organisationToday(), 15);
    await insertClass(course.id, start, start, 6, DEMO.trainer.email);

    // a visitor's copy is shared and kept like the catalogue's
    const first = await page.request.get(`/courses/${course.id}`);
    expect(first.headers()["cache-control"]).toBe("public, no-cache");
    // the second visitor gets the stored page (only stored pages carry an ETag and an Age); a
    // journey beside this one that changes the catalogue retires the stored copies, and the next
    // visitor's page is stored afresh, so a visitor after that gets it
    let again = await page.request.get(`/courses/${course.id}`);
    const storedCopy = async () => {
      if (!again.headers()["etag"]) again = await page.request.get(`/courses/${course.id}`);
      return again.headers()["etag"];
    };
    await expect.poll(storedCopy, { message: "a later visitor gets the stored page" }).toMatch(/^"/);
    expect(again.headers()["age"]).toMatch(/^\d+$/);
    expect(await again.text()).toBe(await first.text());

    await page.goto(`/courses?q=${encodeURIComponent(course.name)}`);
    await page.getByRole("article", { name: course.name }).getByRole("link", { name: course.name }).click();
    await expect(page).toHaveURL(new RegExp(`/courses/${course.id}$`));
    await expect(page.getByRole("heading", { level: 1, name: course.name })).toBeVisible();
    await expect(page).toHaveTitle(`${course.name} (${course.unit_code}) | Summit Crane & Rigging Training`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", course.description);
    for (const outcome of course.learning_outcomes) await expect(page.getByText(outcome)).toBeVisible();
    const classes = page.getByRole("region", { name: "Classes" });
    await expect(classes.getByRole("heading", { level: 3, name: classDates(start, start) })).toBeVisible();
    await expect(classes).toContainText("6 seats left");
    await expect(classes).toContainText(`${classDates(start, start)}, 7:30 am – 3:30 pm`);
    await expect(page.getByRole("heading", { level: 2, name: "Refund policy" })).toBeVisible();
    await expect(page.getByRole("complementary", { name: "Fees" })).toContainText("$1,850.50");
    await expectAccessible(page);
    await fitsAPhone(page);

    await page.getByRole("link", { name: "Sign up and enrol" }).click();
    await expect(page).toHaveURL(new RegExp(`/register\\?redirectTo=%2Fenroll%2F${course.id}$`));
    const email = uniqueEmail("picker");
    await page.getByLabel("Full name").fill("Pat Picker");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(REGISTRATION_PASSWORD);
    await page.getByLabel("Confirm password").fill(REGISTRATION_PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=%2Fenroll%2F${course.id}$`));
    await signInHere(page, email, REGISTRATION_PASSWORD);
    await expect(page).toHaveURL(new RegExp(`/enroll/${course.id}$`));
    await expect(page.getByRole("heading", { level: 1, name: course.name })).toBeVisible();

    // a later visit: the course page's sign-in link comes back to the course too
    await page.context().clearCookies();
    await page.goto(`/courses/${course.id}`);
    await page.getByRole("link", { name: "Sign in to enrol" }).click();
    await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=%2Fenroll%2F${course.id}$`));
    await expect(page.getByRole("link", { name: "Create Account" })).toHaveAttribute("href", `/register?redirectTo=%2Fenroll%2F${course.id}`);
    await signInHere(page, email, REGISTRATION_PASSWORD);
    await expect(page).toHaveURL(new RegExp(`/enroll/${course.id}$`));
  });

  test("a way back to another site is refused: the sign-in goes to the dashboard", async ({ page }) => {
    const learner = await registerStudent(page, "Hostile Link");
    for (const target of ["//evil.example", "https://evil.example", "/\\evil.example"]) {
      await page.context().clearCookies();
      await page.goto(`/login?${new URLSearchParams({ redirectTo: target })}`);
      await expect(page.getByRole("link", { name: "Create Account" })).toHaveAttribute("href", "/register");
      await signInHere(page, learner.email, learner.password);
      await expect(page).toHaveURL(/\/student\/overview$/);
    }
  });

  test("an unknown course's page is not found", NO_FORM, async ({ page }) => {
    const response = await page.goto("/courses/no-such-course");
    expect(response?.status()).toBe(404);
  });
});

test.describe("a seat held on a waitlist", () => {
  test("comes first on the dashboard and the course's page, its class chosen, and Accept takes it", async ({ page, js }) => {
    const course = await insertCourse();
    const today = organisationToday();
    const sooner = addDays(today, 8);
    const offered = addDays(today, 20);
    await insertClass(course.id, sooner, sooner, 5, DEMO.trainer.email);
    const held = await insertClass(course.id, offered, offered, 1, DEMO.trainer.email);
    const learner = await registerStudent(page, "Olive Offered");
    const expires = new Date(Date.now() + 47 * 3600_000).toISOString();
    const now = new Date().toISOString();
    await e2eDb().run(
      "insert into class_waitlist (class_id, student_id, status, joined_at, offered_at, offer_expires_at, offer_mailed_at) values (?, ?, 'offered', ?, ?, ?, ?)",
      held.id,
      await userId(learner.email),
      now,
      now,
      expires,
      now,
    );
    const heldUntil = `A seat is held for you until ${formatDateTime(expires)}`;

    await signIn(page, learner.email);
    await expect(page).toHaveURL(/\/student\/overview$/);
    const offer = page.getByRole("region", { name: "A seat is held for you" });
    await expect(offer).toContainText(heldUntil);
    await expect(offer.getByRole("link", { name: `${course.name}, class of ${classDates(offered, offered)}` })).toBeVisible();
    await expect(offer.getByRole("button", { name: `Accept the seat (${classDates(offered, offered)})` })).toBeVisible();
    // first: above the summary and the progress
    const offerTop = (await offer.boundingBox())!.y;
    expect(offerTop).toBeLessThan((await page.getByRole("heading", { name: "Current Progress" }).boundingBox())!.y);
    await expectAccessible(page);

    await page.goto(`/enroll/${course.id}`);
    const onCourse = page.getByRole("region", { name: "A seat is held for you" });
    await expect(onCourse).toContainText(heldUntil);
    const accept = onCourse.getByRole("button", { name: `Accept the seat (${classDates(offered, offered)})` });
    const enrol = page.getByRole("button", { name: /Enrol Now/ });
    expect((await accept.boundingBox())!.y).toBeLessThan((await enrol.boundingBox())!.y);
    const chosen = page.getByRole("radio", { checked: true });
    await expect(chosen).toHaveCount(1);
    await expect(page.locator("label").filter({ has: chosen })).toContainText(classDates(offered, offered));
    await expect(page.locator("label").filter({ has: chosen })).toContainText(heldUntil);
    await expect(page.locator("label").filter({ has: chosen })).toContainText(`${classDates(offered, offered)}, 7:30 am – 3:30 pm`);
    await expect(page.getByText("Full: join the waitlist")).toHaveCount(0);
    await expectAccessible(page);
    await fitsAPhone(page);

    await accept.click();
    await expect(page).toHaveURL(/\/student\/courses$/);
    await expectMessage(page, js, OFFER_ACCEPTED);
    // the class's sessions show on the learner's course card
    const card = page.getByRole("listitem").filter({ hasText: course.name });
    await expect(card).toContainText(`${classDates(offered, offered)}, 7:30 am – 3:30 pm`);
    await expect(page.getByRole("region", { name: "A seat is held for you" })).toHaveCount(0);
    await expectAccessible(page);
  });
});

test.describe("the calendar feed", () => {
  test("the first address is made without saying an old one ended; a new one is a separate, confirmed step", async ({ page, js }) => {
    const learner = await registerStudent(page, "Cal Feeder");
    await signInAt(page, learner.email, "/student/calendar");
    await expect(page.getByText("You have no calendar address yet.")).toBeVisible();
    await expect(page.getByText("Make a new address")).toHaveCount(0);
    await page.getByRole("button", { name: "Make my calendar address" }).click();
    await expectMessage(page, js, FEED_MADE);
    await expect(page.getByText(/no longer works/)).toHaveCount(0);
    const field = page.getByLabel("Calendar address");
    const address = await field.inputValue();
    expect(address).toMatch(/^https?:\/\/[^/]+\/calendar\/[A-Za-z0-9_-]{40,}\.ics$/);
    await expect(field).toHaveJSProperty("readOnly", true);
    await expect(page.getByRole("button", { name: "Copy the address" })).toHaveCount(js ? 1 : 0);
    await expect(page.getByRole("link", { name: "Subscribe in my calendar app" })).toHaveAttribute("href", address.replace(/^https?:/, "webcal:"));
    // the main action no longer makes another address: replacing sits behind its own step
    await expect(page.getByRole("button", { name: "Make my calendar address" })).toHaveCount(0);
    await expectAccessible(page);
    await fitsAPhone(page, false);

    await page.getByText("Make a new address").click();
    await expect(page.getByText("Your current address stops working at once")).toBeVisible();
    await page.getByRole("button", { name: "End the old address and make a new one" }).click();
    await expectMessage(page, js, FEED_RENEWED);
    await expect(page.getByLabel("Calendar address")).not.toHaveValue(address);
    expect((await page.request.get(new URL(address).pathname)).status()).toBe(404);
  });
});
