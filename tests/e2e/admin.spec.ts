import crypto from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { e2eDb, rightReviewAnswers } from "./e2e-db";
import {
  DEMO,
  expect,
  expectAccessible,
  expectMessage,
  newClientHeaders,
  REGISTRATION_PASSWORD,
  registerStudent,
  signIn,
  signInAt,
  signOut,
  test,
  uniqueEmail,
  useTestPassword,
  NO_FORM,
} from "./fixtures";

/**
 * The administrator portal, run with JavaScript on and off. Tests that change data make their
 * own students, trainers and courses, so they never disturb the demo records other specs read.
 */

const tag = () => crypto.randomUUID().slice(0, 6);

/** Signs in as the demo administrator: on the overview, or straight on `path`. */
async function signInAdmin(page: Page, path?: string) {
  if (path) return signInAt(page, DEMO.admin.email, path);
  await signIn(page, DEMO.admin.email);
  await expect(page).toHaveURL(/\/admin\/overview$/);
}

/** A trainer self-registration that waits for approval (call before signing in). */
async function registerTrainer(page: Page, fullName: string) {
  const email = uniqueEmail("trainer");
  const response = await page.request.post("/register", {
    form: { full_name: fullName, email, password: REGISTRATION_PASSWORD, confirm_password: REGISTRATION_PASSWORD, role: "trainer" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await useTestPassword(email);
  return { email, name: fullName };
}

/** A course of this test's own, created through the Add Course form's endpoint (admin signed in). */
async function createCourse(page: Page, name: string, options: { outcomes?: string[] } = {}) {
  const body = new URLSearchParams([
    ["intent", "save"],
    ["unit_code", "TESTX001"],
    ["tier", "tier_2"],
    ["name", name],
    ["duration_hours", "12"],
    ["price", "345.50"],
    ["description", "A course made by the admin e2e tests."],
    ["prerequisites_present", "1"],
    ["learning_outcomes_present", "1"],
    ...(options.outcomes ?? ["Outcome A", "Outcome B"]).map((o) => ["learning_outcomes", o]),
    ["assessment_criteria_present", "1"],
    ["assessment_criteria", "Criterion A"],
    ["is_active_present", "1"],
    ["is_active", "on"],
  ]);
  const response = await page.request.post("/admin/courses/new", {
    data: body.toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    maxRedirects: 0,
  });
  expect(response.status(), "course created").toBe(302);
  const id = response.headers()["location"]!.split("?")[0]!.split("/").pop()!;
  return { id, name };
}

/** A second browser (its own client and cookies), for the other person in a journey. */
async function otherClient(browser: Browser, js: boolean) {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, javaScriptEnabled: js, extraHTTPHeaders: newClientHeaders() });
  return { context, page: await context.newPage() };
}

function courseCard(page: Page, name: string) {
  return page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

test.describe("layout and overview", () => {
  test("the dashboard shows the figures, tiers, quick actions, recent students and pending approvals", NO_FORM, async ({ page }) => {
    await signInAdmin(page, "/admin");
    await expect(page).toHaveURL(/\/admin\/overview$/);
    const header = page.getByRole("banner");
    await expect(header.getByText("Administrator Portal").first()).toBeVisible();
    // the phone menu repeats who is signed in: the desktop header shows them once
    await expect(header.getByText(DEMO.admin.name).filter({ visible: true })).toBeVisible();
    await expect(header.getByText("Administrator", { exact: true }).filter({ visible: true })).toBeVisible();
    await expect(header.getByRole("button", { name: "Sign out" }).filter({ visible: true })).toBeVisible();

    await expect(page.getByRole("heading", { level: 1, name: "Administrator Dashboard" })).toBeVisible();
    for (const label of ["Total Students", "Active Enrolments", "Completed Courses", "Completion Rate"]) {
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByText(/^\d+%$/).first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Tier Completion Breakdown" })).toBeVisible();
    for (const tier of ["Tier 1 - Basic Operations", "Tier 2 - Intermediate", "Tier 3 - Advanced"]) {
      await expect(page.getByText(tier)).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Manage Students" })).toHaveAttribute("href", "/admin/students");
    await expect(page.getByRole("link", { name: "Manage Courses" })).toHaveAttribute("href", "/admin/courses");
    await expect(page.getByRole("link", { name: "Compliance Reports" })).toHaveAttribute("href", "/admin/reports");
    await expect(page.getByRole("link", { name: "Export Data" })).toHaveAttribute("href", "/admin/export.csv");

    const recent = page.getByRole("table");
    await expect(recent.getByRole("row")).toHaveCount(6); // header + 5 students
    await expect(recent.getByText(/^(Active|Inactive)$/).first()).toBeVisible();

    const pending = page.getByRole("list", { name: "Accounts awaiting approval" });
    await expect(pending.getByText("Dana Reyes")).toBeVisible();
    await expect(pending.getByRole("button", { name: "Approve Dana Reyes" })).toBeVisible();
    await expect(pending.getByRole("button", { name: "Reject Dana Reyes" })).toBeVisible();
  });

  test("Export Data downloads a CSV of students with their enrolments", NO_FORM, async ({ page }) => {
    await signInAdmin(page);
    const response = await page.request.get("/admin/export.csv");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/csv");
    expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="students-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await response.text();
    const [header, ...rows] = text.replace(/^\uFEFF/, "").split("\r\n");
    expect(header).toBe(
      "student_id,full_name,email,phone,date_of_birth,address,emergency_contact,license_number,account_status,joined,unit_code,course_name,tier,enrollment_status,progress_percentage,enrollment_date,completion_date",
    );
    expect(rows.filter((r) => r.includes("student@example.com")).length).toBeGreaterThanOrEqual(4);

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export Data" }).click();
    expect((await download).suggestedFilename()).toMatch(/^students-.*\.csv$/);
  });

  test("a student cannot reach the admin portal or its export", NO_FORM, async ({ page }) => {
    const student = await registerStudent(page, "Nosy Student");
    await signIn(page, student.email);
    for (const path of ["/admin/overview", "/admin/students", "/admin/courses", "/admin/reports"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/student\/overview$/);
    }
    const response = await page.request.get("/admin/export.csv", { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers()["content-type"] ?? "").not.toContain("text/csv");
  });

  test("approving a pending trainer lets them sign in; rejecting keeps the other out", async ({ page, browser, js }) => {
    const approved = await registerTrainer(page, `Approve Me ${tag()}`);
    const rejected = await registerTrainer(page, `Reject Me ${tag()}`);
    await signInAdmin(page);
    const pending = page.getByRole("list", { name: "Accounts awaiting approval" });
    await expect(pending.getByText(approved.name)).toBeVisible();

    await pending.getByRole("button", { name: `Approve ${approved.name}` }).click();
    await expectMessage(page, js, "Account approved");
    await expect(pending.getByText(approved.name)).toHaveCount(0);

    await pending.getByRole("button", { name: `Reject ${rejected.name}` }).click();
    await expectMessage(page, js, "Account rejected");
    await expect(pending.getByText(rejected.name)).toHaveCount(0);

    const other = await otherClient(browser, js);
    try {
      await signIn(other.page, approved.email);
      await expect(other.page).toHaveURL(/\/trainer\/overview$/);
      await other.page.getByRole("button", { name: "Sign out" }).click();
      // the sign-out's answer, not a later page, is what ends the session: wait for it
      await expect(other.page).toHaveURL(/\/login$/);
      await other.page.getByLabel("Email").fill(rejected.email);
      await other.page.getByLabel("Password").fill("password123");
      await other.page.getByRole("button", { name: "Sign In" }).click();
      await expect(other.page.getByRole("alert").filter({ hasText: "not approved" }).first()).toBeVisible();
    } finally {
      await other.context.close();
    }
  });
});

test.describe("student management", () => {
  test("search by name or email finds students, case-insensitively; nothing found says so", async ({ page, js }) => {
    const t = tag();
    const alpha = await registerStudent(page, `Quillon ${t} Alpha`);
    await registerStudent(page, `Quillon ${t} Beta`);
    await signInAdmin(page);
    await page.getByRole("link", { name: "Students", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Student Management" })).toBeVisible();

    const box = page.getByLabel("Search by name or email");
    await box.fill(`QUILLON ${t.toUpperCase()}`);
    if (js)
      await expect(page).toHaveURL(/q=QUILLON/); // live: no button pressed
    else await page.getByRole("button", { name: "Search" }).click();
    const table = page.getByRole("table");
    await expect(table.getByRole("row")).toHaveCount(3);
    await expect(table.getByRole("rowheader", { name: `Quillon ${t} Alpha` })).toBeVisible();
    await expect(table.getByRole("rowheader", { name: `Quillon ${t} Beta` })).toBeVisible();
    await expect(table.getByRole("cell", { name: "Not provided" }).first()).toBeVisible();

    await box.fill(alpha.email.slice(0, 14).toUpperCase());
    if (!js) await page.getByRole("button", { name: "Search" }).click();
    await expect(table.getByRole("row")).toHaveCount(2);
    await expect(table.getByRole("cell", { name: alpha.email })).toBeVisible();

    await box.fill(`nobody-${t}-zz`);
    if (!js) await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("No students found")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`q=nobody-${t}-zz`));
  });

  test("the Filter button narrows the list to inactive or active students", async ({ page, js }) => {
    await signInAdmin(page);
    // the seeded students (their addresses end in example.com), so other tests' students never push them off page 1
    await page.goto("/admin/students?q=%40example.com");
    await page.getByText("Filter", { exact: true }).click();
    await page.getByLabel("Inactive only", { exact: true }).check();
    if (!js) await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=%40example.com&status=inactive/);
    const table = page.getByRole("table");
    await expect(table.getByRole("rowheader", { name: "Lucas Martin" })).toBeVisible();
    await expect(table.getByText("Active", { exact: true })).toHaveCount(0);
    await page.getByLabel("Active only", { exact: true }).check();
    if (!js) await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/status=active/);
    await expect(table.getByText("Inactive", { exact: true })).toHaveCount(0);
    await expect(table.getByRole("rowheader", { name: "Jordan Mitchell" })).toBeVisible();
  });

  test("results are paged with Previous and Next", NO_FORM, async ({ page }) => {
    const t = tag();
    for (let i = 0; i < 21; i++) await registerStudent(page, `Pagina ${t} ${String(i).padStart(2, "0")}`);
    await signInAdmin(page, `/admin/students?q=pagina+${t}`);
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    await expect(page.getByRole("table").getByRole("row")).toHaveCount(21);
    await expect(page.getByText("Showing 1–20 of 21 students")).toBeVisible();
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);
    // newest first: the first registered is last
    await expect(page.getByRole("table").getByRole("rowheader", { name: `Pagina ${t} 00` })).toBeVisible();
    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
  });

  test("the Student Profile shows the record, summary, certificates and history", NO_FORM, async ({ page }) => {
    await signInAdmin(page, "/admin/students?q=jordan");
    await page.getByRole("link", { name: "View Jordan Mitchell" }).click();
    await expect(page).toHaveURL(/\/admin\/students\/[0-9a-f-]{36}\?q=jordan$/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const modal = page.getByRole("dialog", { name: "Student Profile" });
    await expect(modal).toBeVisible();
    // the learner is named by their student number, never a cut internal id
    await expect(modal.getByText(`Student ID: ${id.slice(-8)}`)).toHaveCount(0);
    await expect(modal.getByText(/^Student no\.:/)).toBeVisible();
    await expect(modal.getByText("student@example.com")).toBeVisible();
    await expect(modal.getByText("HRW-NSW-1234567")).toBeVisible();
    for (const section of ["Contact Information", "Account Status", "Summary", "Enrolments", "Certificates", "Files", "Assessment History"]) {
      await expect(modal.getByRole("heading", { name: section })).toBeVisible();
    }
    await expect(modal.getByText("Total enrolments")).toBeVisible();
    await expect(modal.getByText("Average progress")).toBeVisible();
    const download = modal.getByRole("link", { name: /^Download PDF/ }).first();
    await expect(download).toHaveAttribute("href", /^\/certificates\/[0-9a-f-]{36}\/download$/);
    // the demo student's documents, each with its download
    await expect(modal.getByRole("link", { name: "Download white-card.pdf" })).toHaveAttribute("href", /^\/api\/learner-documents\/[0-9a-f-]{36}$/);
    await expect(modal.getByRole("link", { name: "Download photo-id.jpg" })).toBeVisible();
    await expect(modal.getByText("Tandem lift load-sharing calculation incorrect; resit booked.")).toBeVisible();

    await modal.getByRole("link", { name: "Close Student Profile" }).click();
    await expect(page).toHaveURL(/\/admin\/students\?q=jordan$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("a new student's profile shows every empty message; an unknown id fails clearly", NO_FORM, async ({ page }) => {
    const student = await registerStudent(page, `Empty ${tag()} Record`);
    await signInAdmin(page, `/admin/students?q=${encodeURIComponent(student.email)}`);
    await page.getByRole("link", { name: `View ${student.name}` }).click();
    const modal = page.getByRole("dialog", { name: "Student Profile" });
    for (const text of ["No enrolments found", "No certificates issued", "No files uploaded", "No assessments recorded"]) {
      await expect(modal.getByText(text, { exact: true })).toBeVisible();
    }
    await expect(modal.getByText("Never", { exact: true })).toBeVisible();
    await expect(modal.getByText("None", { exact: true })).toBeVisible();
    await expect(modal.getByText("0%")).toBeVisible();

    await page.goto(`/admin/students/${crypto.randomUUID()}`);
    await expect(page.getByRole("dialog").getByText("Failed to load student details")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Student Management" })).toBeVisible();
  });

  test("Edit Student saves changes and keeps the list's search", async ({ page, js }) => {
    const student = await registerStudent(page, `Editable ${tag()} Person`);
    await signInAdmin(page, `/admin/students?q=${encodeURIComponent(student.email)}`);
    await page.getByRole("link", { name: `Edit ${student.name}` }).click();
    const modal = page.getByRole("dialog", { name: "Edit Student" });
    await expect(modal.getByLabel("Full name")).toHaveValue(student.name);
    await expect(modal.getByLabel("Email")).toHaveAttribute("type", "email");
    await expect(modal.getByText("Name and phone number")).toBeVisible();
    await expect(modal.getByText("Existing certification licence")).toBeVisible();

    await modal.getByLabel("Full name").fill(`${student.name} Jr`);
    await modal.getByLabel("Phone").fill("0400 987 654");
    await modal.getByLabel("Date of birth").fill("1990-02-03");
    await modal.getByLabel("Address").fill("1 Crane St, Newcastle NSW 2300");
    await modal.getByLabel("Emergency contact").fill("Robin, 0400 111 222");
    await modal.getByLabel("Licence number").fill("HRW-TEST-42");
    await modal.getByRole("button", { name: "Save Changes" }).click();
    await expectMessage(page, js, "Student updated successfully");
    await expect(page).toHaveURL(new RegExp(`/admin/students\\?q=${encodeURIComponent(student.email).replace(/[.+]/g, "\\$&")}$`));
    const row = page.getByRole("row").filter({ hasText: student.email });
    await expect(row.getByRole("rowheader", { name: `${student.name} Jr` })).toBeVisible();
    await expect(row.getByRole("cell", { name: "0400 987 654" })).toBeVisible();

    await row.getByRole("link", { name: /^View/ }).click();
    const profile = page.getByRole("dialog", { name: "Student Profile" });
    await expect(profile.getByText("HRW-TEST-42")).toBeVisible();
    await expect(profile.getByText("Robin, 0400 111 222")).toBeVisible();
    await expect(profile.getByText("3 Feb 1990")).toBeVisible();
  });

  test("Edit Student refuses a taken email or a blank name, beside the field, with the values kept", async ({ page, js }) => {
    const student = await registerStudent(page, `Clash ${tag()} Person`);
    await signInAdmin(page, `/admin/students?q=${encodeURIComponent(student.email)}`);
    await page.getByRole("link", { name: `Edit ${student.name}` }).click();
    const modal = page.getByRole("dialog", { name: "Edit Student" });
    await modal.getByLabel("Phone").fill("0400 555 666");
    await modal.getByLabel("Email").fill(DEMO.student.email);
    await modal.getByRole("button", { name: "Save Changes" }).click();
    await expect(modal.getByText("An account with this email already exists").first()).toBeVisible();
    await expect(modal.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(modal.getByLabel("Phone")).toHaveValue("0400 555 666");
    if (js) await expect(page.locator("[data-sonner-toast]"), "one message per failure: no toast over the fields").toHaveCount(0);

    await modal.getByLabel("Email").fill(student.email);
    await modal.getByLabel("Full name").fill("  ");
    await modal.getByRole("button", { name: "Save Changes" }).click();
    await expect(modal.getByText("Full name is required").first()).toBeVisible();
    await expect(modal.getByLabel("Email")).toHaveValue(student.email);
  });

  test("deactivating a student signs them out at once and keeps them out", async ({ page, browser, js }) => {
    const student = await registerStudent(page, `Leaving ${tag()} Learner`);
    const other = await otherClient(browser, js);
    try {
      await signIn(other.page, student.email);
      await expect(other.page).toHaveURL(/\/student\/overview$/);

      await signInAdmin(page, `/admin/students?q=${encodeURIComponent(student.email)}`);
      await page.getByRole("link", { name: `Edit ${student.name}` }).click();
      const modal = page.getByRole("dialog", { name: "Edit Student" });
      await expect(modal.getByLabel("Active")).toBeChecked();
      await modal.getByLabel("Active").uncheck();
      await modal.getByLabel("Phone").fill("0400 777 888");
      await modal.getByRole("button", { name: "Save Changes" }).click();
      // switching the account off is asked first, naming whom and what it stops; nothing is saved yet
      const ask = page.getByRole(js ? "dialog" : "region", { name: `Deactivate ${student.name}'s account?` });
      await expect(ask).toContainText("can no longer sign in");
      if (!js) await expect(ask).toBeFocused();
      await expectAccessible(page);
      expect(await e2eDb().get("select is_active, phone from users where email = ?", student.email)).toEqual({ is_active: 1, phone: null });
      await ask.getByRole("button", { name: "Yes, deactivate and save" }).click();
      await expectMessage(page, js, "Student updated successfully");
      // the form's other changes travelled with the confirmation
      expect(await e2eDb().get("select is_active, phone from users where email = ?", student.email)).toEqual({ is_active: 0, phone: "0400 777 888" });
      await expect(page.getByRole("row").filter({ hasText: student.email }).getByText("Inactive")).toBeVisible();

      // the student's very next request finds the session gone
      await other.page.goto("/student/overview");
      await expect(other.page).toHaveURL(/\/login/);
      await other.page.getByLabel("Email").fill(student.email);
      await other.page.getByLabel("Password").fill(student.password);
      await other.page.getByRole("button", { name: "Sign In" }).click();
      await expect(other.page.getByRole("alert").filter({ hasText: "inactive" }).first()).toBeVisible();
    } finally {
      await other.context.close();
    }
  });

  test("Add Student creates an account that can sign in", async ({ page, browser, js }) => {
    const name = `Added ${tag()} Learner`;
    const email = uniqueEmail("added");
    await signInAdmin(page, "/admin/students");
    await page.getByRole("link", { name: "Add Student" }).click();
    await expect(page).toHaveURL(/\/admin\/students\/new$/);
    const modal = page.getByRole("dialog", { name: "Add Student" });
    await modal.getByLabel("Full name").fill(name);
    await modal.getByLabel("Email").fill(email);
    await modal.getByLabel("Initial password").fill("abc");
    await modal.getByLabel("Phone").fill("0400 321 321");
    await modal.getByRole("button", { name: "Create Student" }).click();
    await expect(modal.getByText("Password must be at least 6 characters").first()).toBeVisible();
    await expect(modal.getByLabel("Full name")).toHaveValue(name);
    await expect(modal.getByLabel("Initial password")).toHaveValue("");

    await modal.getByLabel("Initial password").fill("welcome1");
    await modal.getByRole("button", { name: "Create Student" }).click();
    await expect(modal.getByText("This password is too common").first()).toBeVisible();

    await modal.getByLabel("Initial password").fill("Welcome-crane-1");
    // two error toasts now cover the button's corner: submit from the field, as a keyboard user would
    await modal.getByLabel("Initial password").press("Enter");
    await expectMessage(page, js, `Student account created for ${name}`);
    const row = page.getByRole("row").filter({ hasText: email });
    await expect(row.getByRole("rowheader", { name })).toBeVisible();
    await expect(row.getByText("Active")).toBeVisible();

    const other = await otherClient(browser, js);
    try {
      await signIn(other.page, email, "Welcome-crane-1");
      await expect(other.page).toHaveURL(/\/student\/overview$/);
    } finally {
      await other.context.close();
    }
  });
});

test.describe("an enrolment's planned dates", () => {
  const DOGGING = "Licence to perform dogging (DG)";

  test("the office opens an enrolment from the student's profile, changes its planned dates, and a bad pair is refused beside the field", async ({
    page,
    js,
  }) => {
    const student = await registerStudent(page, `Planned ${tag()} Learner`);
    const course = await e2eDb().get<{ id: string }>("select id from courses where name = ? and is_active = 1", DOGGING);
    await signIn(page, student.email);
    // the demo's licence courses ask for the pre-enrolment review first (docs/decisions/028)
    expect((await page.request.post(`/courses/${course!.id}/review`, { form: await rightReviewAnswers(), maxRedirects: 0 })).status()).toBe(302);
    await page.goto(`/enroll/${course!.id}`);
    await page.getByLabel(/I agree to the terms and conditions/).check();
    await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
    await expect(page).toHaveURL(/\/student\/courses$/);
    await signOut(page);
    const enrollment = (await e2eDb().get<{ id: string; planned_start_date: string; planned_end_date: string }>(
      "select e.id, e.planned_start_date, e.planned_end_date from enrollments e join users u on u.id = e.student_id where u.email = ?",
      student.email,
    ))!;

    await signInAdmin(page, `/admin/students?q=${encodeURIComponent(student.email)}`);
    await page.getByRole("link", { name: `View ${student.name}` }).click();
    await page
      .getByRole("dialog", { name: "Student Profile" })
      .getByRole("link", { name: `Planned dates for ${DOGGING}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/admin/enrollments/${enrollment.id}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Enrolment" })).toBeVisible();
    await expect(page.getByLabel("Planned start")).toHaveValue(enrollment.planned_start_date);
    await expect(page.getByLabel("Planned end")).toHaveValue(enrollment.planned_end_date);

    await page.getByLabel("Planned start").fill("2030-03-04");
    await page.getByLabel("Planned end").fill("2031-02-14");
    await page.getByRole("button", { name: "Save planned dates" }).click();
    await expectMessage(page, js, "Planned dates saved");
    await expect(page.getByLabel("Planned start")).toHaveValue("2030-03-04");
    await expect(page.getByLabel("Planned end")).toHaveValue("2031-02-14");
    await page.reload();
    await expect(page.getByLabel("Planned end")).toHaveValue("2031-02-14");

    // an end before the start: the message beside the end, both values as typed, nothing saved
    await page.getByLabel("Planned start").fill("2030-05-10");
    await page.getByLabel("Planned end").fill("2030-05-01");
    await page.getByRole("button", { name: "Save planned dates" }).click();
    const end = page.getByLabel("Planned end");
    await expect(end).toHaveAttribute("aria-invalid", "true");
    await expect(end).toHaveAccessibleDescription(/The planned end cannot be before the planned start/);
    await expect(page.getByLabel("Planned start")).toHaveValue("2030-05-10");
    await expect(end).toHaveValue("2030-05-01");
    if (js) await expect(page.locator("[data-sonner-toast]"), "one message per failure: no toast over the fields").toHaveCount(0);
    await expectAccessible(page);
    expect(await e2eDb().get("select planned_start_date, planned_end_date from enrollments where id = ?", enrollment.id)).toEqual({
      planned_start_date: "2030-03-04",
      planned_end_date: "2031-02-14",
    });
  });
});

test.describe("course management", () => {
  test("the catalogue shows every course as a card with its actions", NO_FORM, async ({ page }) => {
    await signInAdmin(page);
    await page.getByRole("link", { name: "Courses", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Course Management" })).toBeVisible();
    const card = courseCard(page, "Licence to perform dogging (DG)");
    await expect(card.getByText("Tier 1")).toBeVisible();
    await expect(card.getByText("40 hours")).toBeVisible();
    await expect(card.getByText("$1,200")).toBeVisible();
    await expect(card.getByRole("button", { name: "Deactivate Licence to perform dogging (DG)" })).toBeVisible();
    await expect(card.getByRole("link", { name: "Edit Licence to perform dogging (DG)" })).toBeVisible();
    await expect(card.getByRole("link", { name: "View Licence to perform dogging (DG)" })).toBeVisible();
    await page.getByRole("link", { name: "Inactive", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/courses\?status=inactive$/);
    await expect(page.getByRole("button", { name: /^Deactivate / })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Activate / }).first()).toBeVisible();
  });

  test("the status toggle deactivates and reactivates a course", async ({ page, js }) => {
    await signInAdmin(page);
    const course = await createCourse(page, `Toggle ${tag()} crane`);
    await page.goto("/admin/courses");
    const card = courseCard(page, course.name);
    await expect(card.getByText("Active", { exact: true })).toBeVisible();
    await card.getByRole("button", { name: `Deactivate ${course.name}` }).click();
    // closing the course is asked first, naming it and what closing stops; nothing changes yet
    const ask = page.getByRole(js ? "dialog" : "region", { name: `Deactivate ${course.name}?` });
    await expect(ask).toContainText("takes no new enrolments");
    if (!js) await expect(ask).toBeFocused();
    await expectAccessible(page);
    expect(await e2eDb().get("select is_active from courses where name = ?", course.name)).toEqual({ is_active: 1 });
    await ask.getByRole("button", { name: "Yes, deactivate" }).click();
    await expectMessage(page, js, "Course deactivated successfully");
    await expect(card.getByText("Inactive", { exact: true })).toBeVisible();
    await card.getByRole("button", { name: `Activate ${course.name}` }).click();
    await expectMessage(page, js, "Course activated successfully");
    await expect(card.getByText("Active", { exact: true })).toBeVisible();
    await expect(card.getByRole("button", { name: `Deactivate ${course.name}` })).toBeVisible();

    // a course that is not there: the failure is said, nothing changes
    const response = await page.request.post("/admin/courses", {
      form: { intent: "toggle", course_id: crypto.randomUUID(), is_active: "false", confirm: "yes" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    await page.goto("/admin/courses");
    await expectMessage(page, js, "Failed to update course status");
  });

  test("Course Details shows the course, its statistics and recent enrolments", NO_FORM, async ({ page }) => {
    await signInAdmin(page, "/admin/courses");
    await courseCard(page, "Licence to perform dogging (DG)").getByRole("link", { name: /^View/ }).click();
    const modal = page.getByRole("dialog", { name: "Course Details" });
    await expect(modal.getByText("Licence to perform dogging (DG)").first()).toBeVisible();
    await expect(modal.getByText("Total Enrolments")).toBeVisible();
    await expect(modal.getByText("Completion Rate")).toBeVisible();
    await expect(modal.getByRole("heading", { name: "Recent Enrolments" })).toBeVisible();
    const recent = modal.getByRole("heading", { name: "Recent Enrolments" }).locator("xpath=..").getByRole("listitem");
    await expect(recent.first()).toBeVisible();
    expect(await recent.count()).toBeLessThanOrEqual(5);
    await expect(recent.first().getByRole("progressbar")).toBeVisible();
    await expect(modal.getByText("Plan a lift and assess the work area for hazards and exclusion zones")).toBeVisible();

    await page.goto(`/admin/courses/${crypto.randomUUID()}`);
    await expect(page.getByRole("dialog").getByText("Failed to load course details")).toBeVisible();
  });

  test("Edit Course adds and removes list entries (with or without JavaScript) and saves", async ({ page, js }) => {
    await signInAdmin(page);
    const course = await createCourse(page, `Editable ${tag()} hoist`, { outcomes: ["Keep this", "Remove this", "And this"] });
    await page.goto("/admin/courses");
    await courseCard(page, course.name).getByRole("link", { name: /^Edit/ }).click();
    const modal = page.getByRole("dialog", { name: "Edit Course" });
    await expect(modal.getByLabel("Price ($)")).toHaveAttribute("step", "0.01");

    await modal.getByLabel("Course name").fill(`${course.name} v2`);
    await modal.getByLabel("Price ($)").fill("99.5");
    await modal.getByLabel("Duration (hours)").fill("16");
    await modal.getByLabel("Official unit title").fill("Licence to perform rigging basic level");
    await modal.getByRole("button", { name: "Remove learning outcome 2" }).click();
    await expect(modal.getByLabel("Learning outcome 2")).toHaveValue("And this");
    await expect(modal.getByLabel("Learning outcome 3")).toHaveCount(0);
    // what was typed before pressing a list button is kept
    await expect(modal.getByLabel("Course name")).toHaveValue(`${course.name} v2`);
    await expect(modal.getByLabel("Price ($)")).toHaveValue("99.5");

    await modal.getByRole("button", { name: "Add outcome" }).click();
    await expect(modal.getByLabel("Learning outcome 3")).toHaveValue("");
    await modal.getByLabel("Learning outcome 3").fill("A brand new outcome");
    await modal.getByRole("button", { name: "Add outcome" }).click();
    await expect(modal.getByLabel("Learning outcome 4")).toHaveValue(""); // left blank: dropped on save
    await modal.getByRole("button", { name: "Add criterion" }).click();
    await modal.getByLabel("Assessment criterion 2").fill("Practical demonstration");

    await modal.getByRole("button", { name: "Save Changes" }).click();
    await expectMessage(page, js, "Course updated successfully");
    const card = courseCard(page, `${course.name} v2`);
    await expect(card.getByText("$99.50")).toBeVisible();
    await expect(card.getByText("16 hours")).toBeVisible();

    await card.getByRole("link", { name: /^View/ }).click();
    const details = page.getByRole("dialog", { name: "Course Details" });
    const outcomes = details.getByRole("heading", { name: "Learning Outcomes" }).locator("xpath=..").getByRole("listitem");
    await expect(outcomes).toHaveText(["Keep this", "And this", "A brand new outcome"]);
    const criteria = details.getByRole("heading", { name: "Assessment Criteria" }).locator("xpath=..").getByRole("listitem");
    await expect(criteria).toHaveText(["Criterion A", "Practical demonstration"]);
    await expect(details.getByText("Licence to perform rigging basic level")).toBeVisible();
  });

  test("Edit Course refuses a negative price or a blank name, and saves nothing", async ({ page, js }) => {
    await signInAdmin(page);
    const course = await createCourse(page, `Strict ${tag()} winch`);
    await page.goto(`/admin/courses/${course.id}/edit`);
    const modal = page.getByRole("dialog", { name: "Edit Course" });
    await modal.getByLabel("Price ($)").fill("-5");
    await modal.getByLabel("Course name").fill("");
    // a cleared duration is not 0 hours: the unit's nominal hours are reported to NCVER
    await modal.getByLabel("Duration (hours)").fill("");
    await modal.getByRole("button", { name: "Save Changes" }).click();
    await expect(modal.getByText("Price cannot be negative").first()).toBeVisible();
    await expect(modal.getByText("Course name is required").first()).toBeVisible();
    await expect(modal.getByLabel("Duration (hours)")).toHaveAccessibleDescription("Duration is required");
    await expect(modal.getByLabel("Price ($)")).toHaveValue("-5");
    await modal.getByLabel("Duration (hours)").fill("0");
    await modal.getByLabel("Course name").fill(`${course.name} renamed`);
    await modal.getByRole("button", { name: "Save Changes" }).click();
    await expect(modal.getByLabel("Duration (hours)")).toHaveAccessibleDescription("Duration must be more than 0");
    await expect(modal.getByLabel("Course name")).toHaveValue(`${course.name} renamed`);
    if (js) await expect(page.locator("[data-sonner-toast]"), "one message per failure: no toast over the fields").toHaveCount(0);
    await page.goto("/admin/courses");
    await expect(courseCard(page, course.name).getByText("$345.50")).toBeVisible();
  });

  test("Add Course creates a real course from the form", async ({ page, js }) => {
    const name = `Added ${tag()} derrick course`;
    await signInAdmin(page, "/admin/courses");
    await page.getByRole("link", { name: "Add Course" }).click();
    await expect(page).toHaveURL(/\/admin\/courses\/new$/);
    const modal = page.getByRole("dialog", { name: "Add Course" });
    await modal.getByLabel("Unit code").fill("cpcclde3001");
    await modal.getByLabel("Tier").selectOption("tier_3");
    await modal.getByLabel("Course name").fill(name);
    await modal.getByLabel("Duration (hours)").fill("24.5");
    await modal.getByLabel("Price ($)").fill("990");
    await modal.getByLabel("Description").fill("Erect and dismantle derricks safely.");
    await modal.getByLabel("Prerequisite 1").fill("RI licence");
    await modal.getByLabel("Learning outcome 1").fill("Plan a derrick lift");
    await modal.getByRole("button", { name: "Add outcome" }).click();
    await modal.getByLabel("Learning outcome 2").fill("Guy a derrick");
    await modal.getByLabel("Assessment criterion 1").fill("Practical assessment");
    await modal.getByRole("button", { name: "Create Course" }).click();
    await expectMessage(page, js, "Course created successfully");

    const details = page.getByRole("dialog", { name: "Course Details" });
    await expect(details.getByText(name).first()).toBeVisible();
    await expect(details.getByText("CPCCLDE3001 · 24.5 hours · $990")).toBeVisible();
    await expect(details.getByText("Guy a derrick")).toBeVisible();
    await expect(details.getByText("RI licence")).toBeVisible();
    await expect(details.getByText("No enrolments yet")).toBeVisible();
    await page.goto("/admin/courses");
    await expect(courseCard(page, name).getByText("Tier 3")).toBeVisible();
  });
});

test.describe("reports", () => {
  test("the compliance report shows statistics, data-driven checks with links, and the AVETMISS downloads", NO_FORM, async ({ page }) => {
    await signInAdmin(page);
    await page.getByRole("link", { name: "Reports", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "ASQA Compliance Reports" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Enrolment Statistics" })).toBeVisible();
    await expect(page.getByText("Total enrolments")).toBeVisible();
    for (const tier of ["Tier 1 - Basic Operations", "Tier 2 - Intermediate", "Tier 3 - Advanced"]) {
      await expect(page.getByRole("table", { name: "Enrolments by tier" }).getByRole("rowheader", { name: tier })).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "Compliance Overview" })).toBeVisible();
    // the seed has an active student with no date of birth, so not everything is fine
    await expect(page.getByText("Needs attention").first()).toBeVisible();

    await page.getByRole("link", { name: "View records for Date of birth recorded" }).click();
    await expect(page).toHaveURL(/\/admin\/students\?issue=missing-dob$/);
    await expect(page.getByText("Showing: Active students missing a date of birth")).toBeVisible();
    await expect(page.getByRole("table").getByRole("row").nth(1)).toBeVisible();

    await page.goto("/admin/reports?year=2026");
    for (const [label, file] of [
      ["NAT00020 delivery locations", "NAT00020"],
      ["NAT00030 qualification data", "NAT00030"],
      ["NAT00060 unit of competency", "NAT00060"],
    ]) {
      await expect(page.getByRole("link", { name: label })).toHaveAttribute("href", `/admin/reports/avetmiss/${file}.txt?year=2026`);
    }
    await expect(page.getByRole("button", { name: "Export AVETMISS 2026 (zip)" })).toBeVisible();
  });
});
