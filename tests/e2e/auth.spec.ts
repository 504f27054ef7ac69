import crypto from "node:crypto";
import { DEMO, expect, expectAccessible, expectMessage, registerStudent, signIn, signInAt, signInWithForm, test, uniqueEmail, NO_FORM } from "./fixtures";

test.describe("sign in", () => {
  test("the login page shows its heading, fields and links, and is accessible", NO_FORM, async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1, name: "Welcome Back" })).toBeVisible();
    await expect(page.getByText("Sign in to access your training portal")).toBeVisible();
    await expect(page.getByRole("link", { name: "Create Account" })).toHaveAttribute("href", "/register");
    await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
  });

  for (const role of ["student", "trainer", "admin"] as const) {
    test(`the demo ${role} lands on the ${role} portal with a success message`, async ({ page, js }) => {
      await signInWithForm(page, DEMO[role].email);
      await expect(page).toHaveURL(new RegExp(`/${role}/overview$`));
      await expectMessage(page, js, "Login successful!");
      await expect(page.getByText(DEMO[role].name).first()).toBeVisible();
      // the landing page with its toast, read once: the page walk reads each role's landing page
      if (role === "student") await expectAccessible(page);
    });
  }

  test("a wrong password shows the same message as an unknown email, inline and kept email", async ({ page, js }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill(DEMO.student.email);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" }).first()).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(DEMO.student.email);
    if (js) {
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Invalid email or password" })).toBeVisible();
      await page.getByLabel("Email").fill("someone-else@test.example");
      await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" })).toHaveCount(0);
    }
    await page.getByLabel("Email").fill(uniqueEmail("nobody"));
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" }).first()).toBeVisible();
  });

  test("empty fields are named beside the fields", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByText("Email is required").first()).toBeVisible();
    await expect(page.getByText("Password is required").first()).toBeVisible();
  });

  test("signing out ends the session", async ({ page, js }) => {
    await signIn(page, DEMO.student.email);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expectMessage(page, js, "You have been signed out.");
    await page.goto("/student/overview");
    await expect(page).toHaveURL(/\/login/);
  });
});

test.describe("registration", () => {
  test("a new student registers, is sent to login, and can sign in", async ({ page, js }) => {
    const email = uniqueEmail("new");
    await page.goto("/register");
    await page.getByLabel("Full name").fill("Riley Cooper");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Rigging-Kestrel-42");
    await page.getByLabel("Confirm password").fill("Rigging-Kestrel-42");
    await page.getByLabel("Phone").fill("0400 123 456");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expectMessage(page, js, "Registration successful! Please log in.");
    await signInWithForm(page, email, "Rigging-Kestrel-42");
    await expect(page).toHaveURL(/\/student\/overview$/);
    await expect(page.getByRole("heading", { name: /Welcome back, Riley/ })).toBeVisible();
  });

  test("validation messages come back beside the fields with the values kept", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("Full name").fill("Riley Cooper");
    await page.getByLabel("Email").fill(uniqueEmail("v"));
    await page.getByLabel("Password", { exact: true }).fill("abc");
    await page.getByLabel("Confirm password").fill("abc");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Password must be at least 6 characters").first()).toBeVisible();
    await expect(page.getByLabel("Full name")).toHaveValue("Riley Cooper");

    await page.getByLabel("Password", { exact: true }).fill("Rigging-Kestrel-42");
    await page.getByLabel("Confirm password").fill("Rigging-Kestrel-43");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Passwords do not match").first()).toBeVisible();

    // a password from the list of common ones is refused whatever its length
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByLabel("Confirm password").fill("password123");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("This password is too common").first()).toBeVisible();
    await expect(page.getByLabel("Full name")).toHaveValue("Riley Cooper");
  });

  test("an email already registered is refused", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("Full name").fill("Copy Cat");
    await page.getByLabel("Email").fill(DEMO.student.email);
    await page.getByLabel("Password", { exact: true }).fill("Rigging-Kestrel-42");
    await page.getByLabel("Confirm password").fill("Rigging-Kestrel-42");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("An account with this email already exists").first()).toBeVisible();
  });

  test("a trainer registration waits for approval and cannot sign in", async ({ page }) => {
    const email = uniqueEmail("trainer");
    await page.goto("/register");
    await page.getByLabel("Full name").fill("Terry Tran");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Rigging-Kestrel-42");
    await page.getByLabel("Confirm password").fill("Rigging-Kestrel-42");
    await page.getByLabel("Account type").selectOption("trainer");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("Rigging-Kestrel-42");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "awaiting approval" }).first()).toBeVisible();
  });
});

test.describe("guards and redirects", () => {
  test("signed-out visitors are sent to /login from every portal and /dashboard", NO_FORM, async ({ page }) => {
    for (const path of ["/dashboard", "/student", "/admin/overview", "/trainer/students", "/enroll/abc"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/login/);
    }
  });

  test("a student on another role's portal is sent to /dashboard and so home", NO_FORM, async ({ page }) => {
    const student = await registerStudent(page, "Guard Tester");
    await signIn(page, student.email);
    for (const path of ["/admin", "/admin/students", "/trainer", "/trainer/overview"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/student\/overview$/);
    }
    await page.goto("/login");
    await expect(page).toHaveURL(/\/student\/overview$/);
    await page.goto("/register");
    await expect(page).toHaveURL(/\/student\/overview$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/student\/overview$/);
  });

  test("an inactive account cannot sign in", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill("lucas.martin@example.com");
    await page.getByLabel("Password").fill("password123");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "inactive" }).first()).toBeVisible();
  });

  test("a cross-site form post is refused with 403", NO_FORM, async ({ page }) => {
    const response = await page.request.post("/login", {
      form: { email: DEMO.student.email, password: "password123" },
      headers: { Origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(response.headers()["set-cookie"] ?? "").not.toContain("__session");
  });

  test("pages carry the security headers", NO_FORM, async ({ page }) => {
    const response = await page.request.get("/login");
    const h = response.headers();
    expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["x-frame-options"]).toBe("DENY");
    expect(h["referrer-policy"]).toBeTruthy();
  });

  test("with JavaScript, stored and per-visitor pages run their scripts under the CSP and navigate without a reload", async ({ page, js }) => {
    test.skip(!js, "the scripts under test run only with JavaScript");
    const refused: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    page.on("pageerror", (e) => refused.push(String(e)));
    // the stored landing page (scripts allowed by hash), then the router's own navigations:
    // its data requests and route discovery run under the page's CSP
    await page.goto("/");
    const documents: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "document") documents.push(r.url());
    });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Courses" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Course Catalogue" })).toBeVisible();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }).click();
    await page.getByLabel("Email").fill(DEMO.student.email);
    await page.getByLabel("Password").fill("password123");
    await page.getByRole("button", { name: "Sign In" }).click();
    // the action's redirect with its flash message, then a per-visitor page (scripts allowed by nonce)
    await expect(page).toHaveURL(/\/student\/overview$/);
    await expectMessage(page, js, "Login successful!");
    await page.getByRole("link", { name: "My Profile" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "My Profile" })).toBeVisible();
    expect(documents).toEqual([]);
    // a per-visitor document again, and the router's navigation back from it once it runs (Back
    // pressed before the scripts run is the next describe's)
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true);
    await page.goBack();
    await expect(page).toHaveURL(/\/student\/overview$/);
    expect(refused).toEqual([]);
  });
});

test.describe("history before the scripts run", () => {
  test("Back pressed while a reloaded page's scripts are still loading shows the page gone back to", async ({ page, js }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await signInAt(page, DEMO.student.email, "/student/overview");
    await page.getByRole("link", { name: "My Profile" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "My Profile" })).toBeVisible();
    // with JavaScript, the reloaded document's scripts are held until the visitor has gone back;
    // without, every page is its own document and Back loads the one gone back to
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    if (js) {
      await page.route("**/build/**/*.js", async (route) => {
        await held;
        await route.continue();
      });
    }
    await page.reload({ waitUntil: "commit" });
    await expect(page.getByRole("heading", { level: 1, name: "My Profile" })).toBeVisible();
    await page.goBack({ waitUntil: "commit" });
    await expect(page).toHaveURL(/\/student\/overview$/);
    release();
    await expect(page.getByRole("heading", { level: 1, name: /^Welcome back/ })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "My Profile" })).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});

test.describe("a document that names another path", () => {
  test("is loaded once more, then hydrated, never reloaded over and over (without JavaScript, once)", async ({ page, js }) => {
    await signIn(page, DEMO.student.email);
    let documents = 0;
    await page.route("**/student/overview", async (route) => {
      if (route.request().resourceType() !== "document") return route.continue();
      documents += 1;
      const response = await route.fetch();
      const body = (await response.text()).replace('data-rendered-path="/student/overview"', 'data-rendered-path="/somewhere-else"');
      await route.fulfill({ response, body });
    });
    await page.goto("/student/overview");
    await expect(page.getByRole("heading", { level: 1, name: /^Welcome back/ })).toBeVisible();
    if (!js) {
      // no script reads the attribute: the page is served once and its links are plain ones
      await page.getByRole("link", { name: "My Profile" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "My Profile" })).toBeVisible();
      expect(documents).toBe(1);
      return;
    }
    // hydrated: the router takes the next link without a document request
    await expect.poll(() => documents).toBe(2);
    await page.waitForFunction(() => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true);
    const later: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "document") later.push(r.url());
    });
    await page.getByRole("link", { name: "My Profile" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "My Profile" })).toBeVisible();
    expect(documents).toBe(2);
    expect(later).toEqual([]);
  });
});

test.describe("unknown addresses", () => {
  test("an unknown page is a 404 'Page not found' in the site's frame, signed in or not", NO_FORM, async ({ page }) => {
    for (const path of [`/no-such-page-${crypto.randomUUID()}`, "/admin/no-such-screen", "/courses/extra/segments"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
      await expect(page.getByText("We could not find the page you were looking for.")).toBeVisible();
      await expect(page.getByText(/No route matches/)).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    }
    await signIn(page, DEMO.student.email);
    expect((await page.goto("/student/no-such-tab"))?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    // a form posted to an unknown address is the same 404
    const posted = await page.request.post("/no-such-form", { form: { a: "b" }, headers: { Origin: new URL(page.url()).origin } });
    expect(posted.status()).toBe(404);
  });
});
