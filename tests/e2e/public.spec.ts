import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { countEnrollments, enrollmentOf, insertCourse } from "./e2e-db";
import { DEMO, expect, expectMessage, registerStudent, signIn, startSignedIn, signInAt, test, uniqueEmail, NO_FORM } from "./fixtures";

/** Types into the catalogue search; without JavaScript the Search button sends the form. */
async function searchCatalogue(page: Page, js: boolean, term: string) {
  await page.getByLabel("Search courses").fill(term);
  if (!js) await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/[?&]q=/);
}

test.describe("landing page", () => {
  test("has the navigation, hero, stats, features, tiers, call to action and footer", NO_FORM, async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: /home/ })).toHaveAttribute("href", "/");
    await expect(nav.getByRole("link", { name: "Courses", exact: true })).toHaveAttribute("href", "/courses");
    await expect(nav.getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
    await expect(nav.getByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/register");

    await expect(page.getByRole("heading", { level: 1 })).toContainText("Master the lift");
    await expect(page.getByText(/complies with ASQA, the national vocational training\s+regulator/)).toBeVisible();
    await expect(page.getByRole("link", { name: "View Courses" })).toHaveAttribute("href", "/courses");
    await expect(page.getByRole("link", { name: "Reset Password" })).toHaveAttribute("href", "/forgot-password");

    const stats = page.getByRole("region", { name: "Our record" });
    for (const [value, label] of [
      ["500+", "Students Trained"],
      ["95%", "Pass Rate"],
      ["15+", "Years Experience"],
      ["100%", "ASQA Compliant"],
    ]) {
      await expect(stats.getByRole("definition").filter({ hasText: value })).toBeVisible();
      await expect(stats.getByRole("term").filter({ hasText: label })).toBeVisible();
    }

    for (const feature of ["Three-Tier Certification", "Expert Trainers", "Comprehensive Learning", "ASQA Compliance"]) {
      await expect(page.getByRole("heading", { level: 3, name: feature })).toBeVisible();
    }

    for (const [tier, title, hours, price] of [
      ["Tier 1", "Basic Operations", "40 hours", "$1,200"],
      ["Tier 2", "Intermediate", "60 hours", "$1,800"],
      ["Tier 3", "Advanced", "80 hours", "$2,500"],
    ]) {
      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3, name: `${tier} ${title}` }) });
      await expect(card).toContainText(hours);
      await expect(card).toContainText(price);
      expect(await card.getByRole("listitem").count(), `${tier} lists its features`).toBeGreaterThanOrEqual(3);
      // each tier's card leads to registration, as the product's landing page says
      await expect(card.getByRole("link", { name: "Start Training" })).toHaveAttribute("href", "/register");
    }

    await expect(page.getByRole("link", { name: "Start Your Journey" })).toHaveAttribute("href", "/register");
    await expect(page.getByRole("link", { name: "Learn More about our courses", exact: true })).toHaveAttribute("href", "/courses");

    const footer = page.getByRole("contentinfo");
    for (const column of ["Courses", "Support", "Compliance"]) {
      await expect(footer.getByRole("heading", { level: 2, name: column })).toBeVisible();
    }
    await expect(footer.getByText("RTO ID: 45678")).toBeVisible();
  });

  test("its links lead to the catalogue and registration", NO_FORM, async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "View Courses" }).click();
    await expect(page).toHaveURL(/\/courses$/);
    await expect(page.getByRole("heading", { level: 1, name: "Course Catalogue" })).toBeVisible();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /home/ }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.getByRole("link", { name: "Start Training" }).first().click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole("heading", { level: 1, name: "Create Account" })).toBeVisible();
    await page.goto("/");
    await page.getByRole("link", { name: "Learn More" }).click();
    await expect(page).toHaveURL(/\/courses$/);
  });

  test("a signed-in user is sent from / to their dashboard", NO_FORM, async ({ page }) => {
    const student = await registerStudent(page, "Landing Redirect");
    await signInAt(page, student.email, "/");
    await expect(page).toHaveURL(/\/student\/overview$/);
    await page.goto("/forgot-password");
    await expect(page).toHaveURL(/\/student\/overview$/);
  });
});

test.describe("Reset Password modal", () => {
  test("opens over the landing page at its own URL and closes with Cancel", NO_FORM, async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Reset Password" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    const dialog = page.getByRole("dialog", { name: "Reset Password" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Email")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Send Reset Link" })).toBeVisible();
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("can be opened from a shared link and closed with its close button", NO_FORM, async ({ page }) => {
    await page.goto("/forgot-password");
    const dialog = page.getByRole("dialog", { name: "Reset Password" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("link", { name: "Close Reset Password" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("Escape closes it when JavaScript runs; without it the dialog waits for Cancel", async ({ page, js }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Reset Password" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset Password" });
    await expect(dialog).toBeVisible();
    if (js) {
      // a click before hydration loads the dialog's page whole, and its Escape handler arrives
      // with hydration: press until the page has it
      await expect(async () => {
        await page.keyboard.press("Escape");
        await expect(page).toHaveURL(/\/$/, { timeout: 1_000 });
      }).toPass();
      await expect(page.getByRole("dialog")).toHaveCount(0);
    } else {
      await page.keyboard.press("Escape");
      await expect(page).toHaveURL(/\/forgot-password$/);
      await expect(dialog).toBeVisible();
      await dialog.getByRole("link", { name: "Cancel" }).click();
      await expect(page.getByRole("dialog")).toHaveCount(0);
    }
  });

  test("a malformed email is named beside the field, with the value kept", async ({ page }) => {
    await page.goto("/forgot-password");
    const dialog = page.getByRole("dialog", { name: "Reset Password" });
    await dialog.getByLabel("Email").fill("not-an-email");
    await dialog.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(dialog.getByText("Enter a valid email address").first()).toBeVisible();
    await expect(dialog.getByLabel("Email")).toHaveValue("not-an-email");
    await expect(page).toHaveURL(/\/forgot-password$/);
    await dialog.getByLabel("Email").fill("");
    await dialog.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(dialog.getByText("Email is required").first()).toBeVisible();
  });

  test("a well-formed email gets the same neutral answer whether or not it is registered", async ({ page, js }) => {
    for (const email of [uniqueEmail("nobody"), DEMO.trainer.email]) {
      await page.goto("/forgot-password");
      await page.getByRole("dialog").getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Send Reset Link" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expectMessage(page, js, "If an account exists for that email, a reset link has been sent.");
      await expect(page.getByRole("dialog")).toHaveCount(0);
    }
  });
});

test.describe("course catalogue", () => {
  test("shows every part of a course card, signed out, and is accessible", NO_FORM, async ({ page }) => {
    const course = await insertCourse();
    await page.goto(`/courses?q=${encodeURIComponent(course.name)}`);
    await expect(page.getByRole("heading", { level: 1, name: "Course Catalogue" })).toBeVisible();
    const card = page.getByRole("article", { name: course.name });
    await expect(card).toBeVisible();
    await expect(card.getByText("Tier 2", { exact: true })).toBeVisible();
    await expect(card.getByRole("heading", { name: course.name })).toBeVisible();
    await expect(card).toContainText("60 hours");
    await expect(card).toContainText(course.description);
    for (const outcome of course.learning_outcomes.slice(0, 3)) await expect(card.getByText(outcome)).toBeVisible();
    for (const outcome of course.learning_outcomes.slice(3)) await expect(card.getByText(outcome)).toHaveCount(0);
    await expect(card.getByRole("link", { name: "+2 more outcomes" })).toHaveAttribute("href", `/courses/${course.id}#outcomes-title`);
    await expect(card.getByRole("link", { name: course.name })).toHaveAttribute("href", `/courses/${course.id}`);
    for (const prerequisite of course.prerequisites) await expect(card.getByText(prerequisite)).toBeVisible();
    await expect(card.getByText("$1,850.50")).toBeVisible();
    await expect(card.getByText("ASQA Certified")).toBeVisible();
    await expect(card.getByText("4.8")).toBeVisible();
    await expect(card.getByText("25+ enrolled")).toBeVisible();
    await expect(card.getByRole("link", { name: "Sign up and enrol" })).toHaveAttribute("href", `/register?redirectTo=%2Fenroll%2F${course.id}`);
    await expect(card.getByRole("link", { name: "Enrol Now" })).toHaveCount(0);
  });

  test("lists active courses only", NO_FORM, async ({ page }) => {
    // The catalogue is paged and other tests keep adding courses, so look for these by a word of their own.
    const word = `Visibility${crypto.randomUUID().slice(0, 8)}`;
    const hidden = await insertCourse({ is_active: false, name: `${word} closed course` });
    const shown = await insertCourse({ tier: "tier_1", name: `${word} open course` });
    await page.goto(`/courses?q=${word}`);
    await expect(page.getByRole("article", { name: shown.name })).toBeVisible();
    await expect(page.getByRole("article", { name: hidden.name })).toHaveCount(0);
    await expect(page.getByRole("article")).toHaveCount(1);
    await page.goto(`/courses?q=${encodeURIComponent(hidden.name)}`);
    await expect(page.getByRole("heading", { name: "No Courses Found" })).toBeVisible();
    await page.goto("/courses?q=vehicle+loading+crane");
    await expect(page.getByRole("heading", { name: "No Courses Found" })).toBeVisible();
  });

  test("search narrows the list and the URL holds it", async ({ page, js }) => {
    const course = await insertCourse();
    await page.goto("/courses");
    await searchCatalogue(page, js, course.unit_code.toLowerCase());
    await expect(page).toHaveURL(new RegExp(`[?&]q=${course.unit_code.toLowerCase()}`));
    await expect(page.getByRole("article")).toHaveCount(1);
    await expect(page.getByRole("article", { name: course.name })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Search courses")).toHaveValue(course.unit_code.toLowerCase());
    await expect(page.getByRole("article")).toHaveCount(1);
  });

  test("the tier filter shows one tier and combines with search", async ({ page, js }) => {
    const tier3 = await insertCourse({ tier: "tier_3", name: `Zeta tower crane ${crypto.randomUUID().slice(0, 6)}` });
    await page.goto("/courses");
    await page.getByLabel("Tier").selectOption("tier_3");
    if (!js) await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/[?&]tier=tier_3/);
    // Zeta sorts last in its tier, so on a paged catalogue it may be past the first page.
    const cards = page.getByRole("article");
    await expect(cards.first().getByText(/^Tier \d$/)).toHaveText("Tier 3");
    for (const card of await cards.all()) {
      await expect(card.getByText(/^Tier \d$/)).toHaveText("Tier 3");
    }
    await searchCatalogue(page, js, tier3.name);
    await expect(page).toHaveURL(/tier=tier_3/);
    await expect(page.getByRole("article")).toHaveCount(1);
    await expect(page.getByRole("article", { name: tier3.name })).toBeVisible();
    await page.getByLabel("Tier").selectOption("tier_1");
    if (!js) await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("heading", { name: "No Courses Found" })).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(0);
  });

  test("filters as you type with JavaScript; without it the Search button sends the form", async ({ page, js }) => {
    const course = await insertCourse();
    await page.goto("/courses");
    await page.getByLabel("Search courses").pressSequentially(course.name.slice(-8), { delay: 30 });
    if (js) {
      await expect(page.getByRole("article")).toHaveCount(1);
      await expect(page).toHaveURL(/[?&]q=/);
    } else {
      await page.waitForTimeout(600);
      await expect(page).toHaveURL(/\/courses$/);
      expect(await page.getByRole("article").count()).toBeGreaterThan(1);
      await page.getByLabel("Search courses").press("Enter");
      await expect(page).toHaveURL(/[?&]q=/);
      await expect(page.getByRole("article")).toHaveCount(1);
    }
    await expect(page.getByRole("article", { name: course.name })).toBeVisible();
  });

  test("a search with no match says No Courses Found, and a URL filter is honoured", NO_FORM, async ({ page }) => {
    await page.goto("/courses?q=submarine-periscope&tier=tier_2");
    await expect(page.getByRole("heading", { name: "No Courses Found" })).toBeVisible();
    await expect(page.getByLabel("Search courses")).toHaveValue("submarine-periscope");
    await expect(page.getByLabel("Tier")).toHaveValue("tier_2");
    await page.getByRole("link", { name: "Show all courses" }).click();
    await expect(page).toHaveURL(/\/courses$/);
    await expect(page.getByRole("article").first()).toBeVisible();
  });

  test("an odd query string is shrugged off, not an error", NO_FORM, async ({ page }) => {
    const response = await page.goto(`/courses?tier=tier_9&q=${"%25_".repeat(80)}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByLabel("Tier")).toHaveValue("all");
  });

  test("pages a long result twelve courses at a time, keeping the search, and a new search starts at page 1", async ({ page, js }) => {
    const word = `Paging${crypto.randomUUID().slice(0, 8)}`;
    const courses = await Promise.all(
      Array.from({ length: 14 }, (_, i) => insertCourse({ tier: "tier_1", name: `${word} course ${String(i + 1).padStart(2, "0")}` })),
    );
    const card = (i: number) => page.getByRole("article", { name: courses[i]!.name, exact: true });
    const pages = page.getByRole("navigation", { name: "Courses pages" });
    await page.goto("/courses");
    await searchCatalogue(page, js, word);

    await expect(page.getByText("14 courses match your search")).toBeVisible();
    await expect(pages.getByText(/page 1 of 2/)).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(12);
    await expect(card(0)).toBeVisible();
    await expect(card(11)).toBeVisible();
    await expect(card(12)).toHaveCount(0);
    await expect(pages.getByRole("link", { name: "Previous" })).toHaveCount(0);

    await pages.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/[?&]page=2$/);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${word}&`));
    await expect(pages.getByText(/page 2 of 2/)).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(2);
    await expect(card(12)).toBeVisible();
    await expect(card(13)).toBeVisible();
    await expect(page.getByText("14 courses match your search")).toBeVisible();
    await expect(page.getByLabel("Search courses")).toHaveValue(word);
    await expect(pages.getByRole("link", { name: "Next" })).toHaveCount(0);

    await pages.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${word}`));
    await expect(page).not.toHaveURL(/page=/);
    await expect(pages.getByText(/page 1 of 2/)).toBeVisible();
    await expect(card(0)).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(12);

    await pages.getByRole("link", { name: "Next" }).click();
    await expect(card(13)).toBeVisible();
    await page.getByLabel("Tier").selectOption("tier_1");
    if (!js) await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/[?&]tier=tier_1/);
    await expect(page).not.toHaveURL(/page=/);
    await expect(pages.getByText(/page 1 of 2/)).toBeVisible();
    await expect(card(0)).toBeVisible();
  });

  test("a page number past the end shows the last page, and an unreadable one the first", NO_FORM, async ({ page }) => {
    const word = `Pageclamp${crypto.randomUUID().slice(0, 8)}`;
    for (let i = 1; i <= 13; i++) await insertCourse({ tier: "tier_2", name: `${word} course ${String(i).padStart(2, "0")}` });
    const pages = page.getByRole("navigation", { name: "Courses pages" });
    const response = await page.goto(`/courses?q=${word}&page=99`);
    expect(response?.status()).toBe(200);
    await expect(pages.getByText(/page 2 of 2/)).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(1);
    await expect(page.getByRole("article", { name: `${word} course 13` })).toBeVisible();
    for (const garbage of ["abc", "-1", "0", "1.5", ""]) {
      expect((await page.goto(`/courses?q=${word}&page=${garbage}`))?.status(), garbage).toBe(200);
      await expect(pages.getByText(/page 1 of 2/), garbage).toBeVisible();
      await expect(page.getByRole("article"), garbage).toHaveCount(12);
    }
    // One page needs no page links.
    await page.goto(`/courses?q=${word}+course+13`);
    await expect(page.getByRole("article")).toHaveCount(1);
    await expect(page.getByText("1 course matches your search")).toBeVisible();
    await expect(pages).toHaveCount(0);
  });

  test("signed in, a card offers Enroll Now to the enrolment page", NO_FORM, async ({ page }) => {
    const course = await insertCourse();
    const student = await registerStudent(page, "Catalogue Browser");
    await signInAt(page, student.email, `/courses?q=${encodeURIComponent(course.name)}`);
    const card = page.getByRole("article", { name: course.name });
    await expect(card.getByRole("link", { name: "Enrol Now" })).toHaveAttribute("href", `/enroll/${course.id}`);
    await expect(card.getByRole("link", { name: "Sign up and enrol" })).toHaveCount(0);
  });
});

test.describe("enrolment", () => {
  test("a visitor goes from the landing page through the catalogue, registers, signs in and enrols", async ({ page, js }) => {
    const course = await insertCourse();
    const email = uniqueEmail("journey");
    await page.goto("/");
    await page.getByRole("link", { name: "View Courses" }).click();
    await searchCatalogue(page, js, course.name);
    await page.getByRole("article", { name: course.name }).getByRole("link", { name: "Sign up and enrol" }).click();

    await expect(page).toHaveURL(/\/register\?redirectTo=/);
    await page.getByLabel("Full name").fill("Jamie Journey");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Rigging-Kestrel-42");
    await page.getByLabel("Confirm password").fill("Rigging-Kestrel-42");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
    await signIn(page, email, "Rigging-Kestrel-42");

    await page.goto(`/courses?q=${encodeURIComponent(course.name)}`);
    await page.getByRole("article", { name: course.name }).getByRole("link", { name: "Enrol Now" }).click();
    await expect(page).toHaveURL(new RegExp(`/enroll/${course.id}$`));

    await expect(page.getByRole("heading", { level: 1, name: course.name })).toBeVisible();
    await expect(page.getByText(course.description)).toBeVisible();
    for (const [title, items] of [
      ["Learning outcomes", course.learning_outcomes],
      ["Assessment criteria", course.assessment_criteria],
      ["Prerequisites", course.prerequisites],
    ] as const) {
      const section = page.getByRole("region", { name: title });
      for (const item of items) await expect(section.getByText(item)).toBeVisible();
    }
    await expect(page.getByText("$1,850.50")).toBeVisible();
    await expect(page.getByText("One-time payment")).toBeVisible();
    await expect(page.getByText(/no charges will be made/i)).toBeVisible();

    const terms = page.getByLabel(/I agree to the terms and conditions/);
    const enrol = page.getByRole("button", { name: "Enrol Now (Mock Payment)" });
    if (js) {
      await expect(enrol).toBeDisabled();
      await terms.check();
      await expect(enrol).toBeEnabled();
    } else {
      await enrol.click();
      await expect(page.getByText("Please agree to the terms and conditions").first()).toBeVisible();
      expect(await countEnrollments(email, course.id)).toBe(0);
      await page.getByLabel(/I agree to the terms and conditions/).check();
    }
    await enrol.click();
    await expect(page).toHaveURL(/\/student\/courses$/);
    await expectMessage(page, js, "Successfully enrolled in course!");
    expect(await enrollmentOf(email, course.id)).toEqual({ status: "enrolled", progress_percentage: 0 });
  });

  test("the server refuses an enrolment without the terms ticked", NO_FORM, async ({ page }) => {
    const course = await insertCourse();
    const student = await registerStudent(page, "Terms Skipper");
    await startSignedIn(page, student.email);
    const response = await page.request.post(`/enroll/${course.id}`, { form: {}, maxRedirects: 0 });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("Please agree to the terms and conditions");
    expect(await countEnrollments(student.email, course.id)).toBe(0);
  });

  test("enrolling twice in one course is refused with a clear message and creates nothing", async ({ page, js }) => {
    const course = await insertCourse();
    const student = await registerStudent(page, "Double Dipper");
    await signIn(page, student.email);
    const second = await page.context().newPage();
    await page.goto(`/enroll/${course.id}`);
    await second.goto(`/enroll/${course.id}`);

    await page.getByLabel(/I agree to the terms/).check();
    await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
    await expect(page).toHaveURL(/\/student\/courses$/);

    await second.getByLabel(/I agree to the terms/).check();
    await second.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
    await expect(second.getByRole("alert").filter({ hasText: "You are already enrolled in this course" }).first()).toBeVisible();
    if (js) await expect(second.locator("[data-sonner-toast]").filter({ hasText: "already enrolled" })).toBeVisible();
    expect(await countEnrollments(student.email, course.id)).toBe(1);

    await second.goto(`/enroll/${course.id}`);
    await expect(second.getByText("You are already enrolled in this course")).toBeVisible();
    await expect(second.getByRole("button", { name: "Enrol Now (Mock Payment)" })).toHaveCount(0);
    await expect(second.getByRole("link", { name: "Go to My Courses" })).toHaveAttribute("href", "/student/courses");
  });

  test("double-clicking Enroll Now makes one enrollment", async ({ page }) => {
    const course = await insertCourse();
    const student = await registerStudent(page, "Quick Clicker");
    await signInAt(page, student.email, `/enroll/${course.id}`);
    await page.getByLabel(/I agree to the terms/).check();
    await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).dblclick();
    await expect(page.getByText("Successfully enrolled in course!").or(page.getByText("You are already enrolled in this course")).first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await countEnrollments(student.email, course.id)).toBe(1);
  });

  test("an unknown, inactive or malformed course id says Course not found and goes back to /courses", async ({ page, js }) => {
    const inactive = await insertCourse({ is_active: false });
    const student = await registerStudent(page, "Lost Learner");
    await signIn(page, student.email);
    for (const id of [crypto.randomUUID(), inactive.id, "not-a-course", "%27%20or%201%3D1%20--", "x".repeat(300)]) {
      await page.goto(`/enroll/${id}`);
      await expect(page, id).toHaveURL(/\/courses$/);
      await expectMessage(page, js, "Course not found");
    }
    const response = await page.request.post(`/enroll/${inactive.id}`, { form: { terms: "on" }, maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("/courses");
    expect(await countEnrollments(student.email, inactive.id)).toBe(0);
  });

  test("sign-in is required, and afterwards the visitor comes back to the course", async ({ page, request }) => {
    const course = await insertCourse();
    const student = await registerStudent(page, "Returning Visitor");
    await page.goto(`/enroll/${course.id}`);
    await expect(page).toHaveURL(/\/login\?redirectTo=/);
    await page.getByLabel("Email").fill(student.email);
    await page.getByLabel("Password").fill(student.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(new RegExp(`/enroll/${course.id}$`));
    await expect(page.getByRole("heading", { level: 1, name: course.name })).toBeVisible();
    const post = await request.post(`/enroll/${course.id}`, { form: { terms: "on" }, maxRedirects: 0 });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toMatch(/^\/login/);
  });

  test("a trainer may enrol too and lands on their dashboard with the message", async ({ page, js }) => {
    const course = await insertCourse();
    await signInAt(page, DEMO.trainer.email, `/enroll/${course.id}`);
    await page.getByLabel(/I agree to the terms/).check();
    await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
    await expect(page).toHaveURL(/\/trainer\/overview$/);
    await expectMessage(page, js, "Successfully enrolled in course!");
    expect(await countEnrollments(DEMO.trainer.email, course.id)).toBe(1);
  });
});
