import crypto from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { e2eDb, insertCourse } from "./e2e-db";
import { expectBuyerCreditNote, officeIssuesCreditNote } from "./credit-notes";
import {
  DEMO,
  expect,
  expectAccessible,
  expectMessage,
  expectToastBelowHeader,
  registerStudent,
  signIn,
  startSignedIn,
  signInAt,
  signOut,
  test,
  NO_FORM,
} from "./fixtures";

/** The figure on a dashboard counter, found by its label. */
async function counter(page: Page, label: string): Promise<number> {
  const value = page.getByText(label, { exact: true }).locator("xpath=following-sibling::p[1]");
  return Number((await value.textContent())?.trim());
}

/** A titled card of a page, found by its heading. */
function card(page: Page, title: string): Locator {
  return page.locator("section").filter({ has: page.getByRole("heading", { level: 2, name: title, exact: true }) });
}

function notificationsLink(page: Page): Locator {
  return page.getByRole("link", { name: /^Notifications/ });
}

const CERTIFICATE_HREF = /^\/certificates\/[0-9a-f-]{36}\/download$/;

test.describe("student portal: the demo student", () => {
  test("figures agree across the overview, My Courses and My Certificates", NO_FORM, async ({ page }) => {
    await signIn(page, DEMO.student.email);
    await expect(page).toHaveURL(/\/student\/overview$/);

    // Top bar
    const banner = page.getByRole("banner");
    await expect(banner.getByText("Student Portal").first()).toBeVisible();
    // the phone menu repeats who is signed in: the desktop header shows them once
    await expect(banner.getByText(DEMO.student.name).filter({ visible: true })).toBeVisible();
    await expect(banner.getByText("Student", { exact: true }).filter({ visible: true })).toBeVisible();
    await expect(banner.getByText("J", { exact: true }).filter({ visible: true })).toBeVisible();
    await expect(notificationsLink(page)).toHaveAttribute("href", "/student/notifications");
    await expect(banner.getByRole("button", { name: "Sign out" }).filter({ visible: true })).toBeVisible();

    await expect(page.getByRole("heading", { level: 1, name: "Welcome back, Jordan!" })).toBeVisible();
    const total = await counter(page, "Total Enrolments");
    const completed = await counter(page, "Completed Courses");
    const inProgress = await counter(page, "In Progress");
    const certificates = await counter(page, "Certificates");
    expect({ total, completed, inProgress, certificates }).toEqual({ total: 5, completed: 3, inProgress: 1, certificates: 3 });

    const progress = card(page, "Current Progress");
    await expect(progress.getByRole("progressbar")).toHaveCount(3);
    await expect(progress.getByRole("link", { name: "View All Courses" })).toHaveAttribute("href", "/student/courses");
    const quick = card(page, "Quick Actions");
    await expect(quick.getByRole("link", { name: "Browse Courses" })).toHaveAttribute("href", "/courses");
    await expect(quick.getByRole("link", { name: "View Certificates" })).toHaveAttribute("href", "/student/certificates");
    await expect(quick.getByRole("link", { name: "View Profile" })).toHaveAttribute("href", "/student/profile");
    const recent = card(page, "Recent Certificates");
    await expect(recent.getByRole("listitem")).toHaveCount(2);
    await expect(recent.getByRole("link", { name: "View All Certificates" })).toHaveAttribute("href", "/student/certificates");

    // My Courses: one card per enrollment, the same split by status
    await progress.getByRole("link", { name: "View All Courses" }).click();
    await expect(page).toHaveURL(/\/student\/courses$/);
    await expect(page.getByRole("heading", { level: 1, name: "My Courses" })).toBeVisible();
    // a card is the list item with the enrolment's progress (a class's sessions are a list inside it)
    const cards = page
      .getByRole("main")
      .getByRole("listitem")
      .filter({ has: page.getByRole("progressbar") });
    await expect(cards).toHaveCount(total);
    await expect(page.getByRole("main").getByText("Completed", { exact: true })).toHaveCount(completed);
    await expect(page.getByRole("main").getByText("In Progress", { exact: true })).toHaveCount(inProgress);
    await expect(page.getByRole("main").getByText("Enrolled", { exact: true })).toHaveCount(1);
    await expect(page.getByRole("main").getByRole("progressbar")).toHaveCount(total);
    for (const c of await cards.all()) {
      await expect(c.getByRole("heading", { level: 2 })).toHaveText(/\S/);
      await expect(c.getByText(/^Tier [123]$/)).toBeVisible();
      await expect(c.getByText(/^\d+(\.\d+)? hours$/)).toBeVisible();
      await expect(c.getByText(/^\$[\d,]+(\.\d\d)?$/)).toBeVisible();
      await expect(c.getByText(/^\d{1,2} [A-Z][a-z]{2,3} \d{4}$/).first()).toBeVisible();
      await expect(c.getByText(/^\d{1,3}%$/)).toBeVisible();
    }
    const inProgressCard = cards.filter({ hasText: "In Progress" });
    await expect(inProgressCard.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "65");
    await expect(inProgressCard.getByText("65%")).toBeVisible();

    // My Certificates: the same number of certificates, each downloadable by link
    await page.getByRole("link", { name: "My Certificates" }).click();
    await expect(page).toHaveURL(/\/student\/certificates$/);
    await expect(page.getByRole("heading", { level: 2, name: "Statement of Attainment" })).toHaveCount(certificates);
    const certificateCards = page.getByRole("main").getByRole("listitem");
    for (const c of await certificateCards.all()) {
      await expect(c.getByText(/^Tier [123]$/)).toBeVisible();
      await expect(c.getByText("Certificate number")).toBeVisible();
      await expect(c.getByText("Issued")).toBeVisible();
      const link = c.getByRole("link", { name: /^Download PDF/ });
      const href = (await link.getAttribute("href"))!;
      expect(href).toMatch(CERTIFICATE_HREF);
      // no download attribute: the route's Content-Disposition names the file, and a failure
      // without JavaScript is shown rather than saved as a broken PDF
      await expect(link).not.toHaveAttribute("download");
    }
  });

  test("/student opens the overview", NO_FORM, async ({ page }) => {
    await signInAt(page, DEMO.student.email, "/student");
    await expect(page).toHaveURL(/\/student\/overview$/);
  });

  test("My Profile shows the account's fields read-only", NO_FORM, async ({ page }) => {
    await signIn(page, DEMO.student.email);
    await page.getByRole("link", { name: "My Profile" }).click();
    await expect(page).toHaveURL(/\/student\/profile$/);
    await expect(page.getByRole("heading", { level: 1, name: "My Profile" })).toBeVisible();
    const field = (label: string) => page.getByText(label, { exact: true }).locator("xpath=following-sibling::dd[1]");
    await expect(field("Full Name")).toHaveText(DEMO.student.name);
    await expect(field("Email")).toHaveText(DEMO.student.email);
    await expect(field("Phone")).toHaveText("0412 000 111");
    await expect(field("Address")).toHaveText("42 Harbour Rd, Newcastle NSW 2300");
    await expect(field("Date of Birth")).toHaveText("18 Apr 1996");
    await expect(field("Emergency Contact")).toHaveText("Casey Mitchell, 0412 999 888");
    await expect(field("Licence Number")).toHaveText("HRW-NSW-1234567");
    await expect(field("Role")).toHaveText("Student");
    await expect(field("Member Since")).toHaveText(/^\d{1,2} [A-Z][a-z]{2,3} \d{4}$/);
    await expect(page.getByRole("textbox")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Edit Profile" })).toHaveAttribute("href", "/student/profile/edit");
  });

  test("notifications list the student's enrolments, attendance, status changes and certificates", NO_FORM, async ({ page, js }) => {
    await signIn(page, DEMO.student.email);
    await expect(notificationsLink(page)).toHaveText(/\d+\+? unread/);
    // the sign-in's toast sits under the header: the header's link is clicked while it shows
    if (js) {
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Login successful!" })).toBeVisible();
      await expectToastBelowHeader(page);
    }
    await notificationsLink(page).click({ timeout: 5_000 });
    await expect(page).toHaveURL(/\/student\/notifications$/);
    await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
    const items = page.getByRole("main").getByRole("listitem");
    await expect(items.filter({ hasText: /^.*Enrolled in / }).first()).toBeVisible();
    // the newest are the marks of the class under way; the completions and certificates are older
    await expect(items.filter({ hasText: /Attendance on \d{1,2} [A-Z][a-z]{2} \d{4}: .+, present\./ }).first()).toBeVisible();
    await page.goto("/student/notifications?page=2");
    await expect(items.filter({ hasText: /: status in progress \u2192 completed/ }).first()).toBeVisible();
    await expect(items.filter({ hasText: /Certificate .+ issued for / }).first()).toBeVisible();
    await expect(
      items
        .filter({ hasText: /Certificate .+ issued for / })
        .first()
        .getByRole("link", { name: "View My Certificates" }),
    ).toHaveAttribute("href", "/student/certificates");
  });
});

test.describe("student portal: a fresh student", () => {
  test("sees every empty state", NO_FORM, async ({ page }) => {
    const student = await registerStudent(page, "Casey Nguyen Tran");
    await signIn(page, student.email);
    await expect(page).toHaveURL(/\/student\/overview$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back, Casey!" })).toBeVisible();
    for (const label of ["Total Enrolments", "Completed Courses", "In Progress", "Certificates"]) {
      expect(await counter(page, label), label).toBe(0);
    }
    const progress = card(page, "Current Progress");
    await expect(progress.getByText("No course enrolments yet")).toBeVisible();
    await expect(progress.getByRole("link", { name: "Browse Courses" })).toHaveAttribute("href", "/courses");
    await expect(progress.getByRole("link", { name: "View All Courses" })).toHaveCount(0);
    const recent = card(page, "Recent Certificates");
    await expect(recent.getByText("No Certificates Yet")).toBeVisible();
    await expect(recent.getByRole("link", { name: "View All Certificates" })).toHaveCount(0);
    await expectAccessible(page);

    await page.getByRole("link", { name: "My Courses" }).click();
    await expect(page).toHaveURL(/\/student\/courses$/);
    await expect(page.getByText("No Course Enrolments", { exact: true })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Browse Courses" }).first()).toHaveAttribute("href", "/courses");
    await expectAccessible(page);

    await page.getByRole("link", { name: "My Certificates" }).click();
    await expect(page).toHaveURL(/\/student\/certificates$/);
    await expect(page.getByText("No Certificates Yet", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: /Download PDF/ })).toHaveCount(0);
    await expectAccessible(page);

    await page.getByRole("link", { name: "My Profile" }).click();
    const field = (label: string) => page.getByText(label, { exact: true }).locator("xpath=following-sibling::dd[1]");
    await expect(field("Full Name")).toHaveText("Casey Nguyen Tran");
    for (const label of ["Phone", "Address", "Date of Birth", "Emergency Contact", "Licence Number"]) {
      await expect(field(label), label).toHaveText("Not provided");
    }
    await expect(field("Member Since")).toHaveText(/^\d{1,2} [A-Z][a-z]{2,3} \d{4}$/);
    await expectAccessible(page);
  });

  test("edits their profile: errors beside the fields with values kept, then a confirmation", async ({ page, js }) => {
    const student = await registerStudent(page, "Robin Edits");
    await signInAt(page, student.email, "/student/profile");
    await page.getByRole("link", { name: "Edit Profile" }).click();
    await expect(page).toHaveURL(/\/student\/profile\/edit$/);
    const dialog = page.getByRole("dialog", { name: "Edit Profile" });
    await expect(dialog).toBeVisible();

    await dialog.getByLabel("Phone").fill("call me maybe");
    await dialog.getByLabel("Address").fill("7 Jib Lane, Geelong VIC 3220");
    await dialog.getByLabel("Emergency contact").fill("Sky Edits, 0400 222 333");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect(dialog.getByLabel("Phone")).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("Phone")).toHaveAccessibleDescription("Enter a valid phone number");
    await expect(dialog.getByLabel("Phone")).toHaveValue("call me maybe");
    await expect(dialog.getByLabel("Address")).toHaveValue("7 Jib Lane, Geelong VIC 3220");
    await expect(dialog.getByLabel("Emergency contact")).toHaveValue("Sky Edits, 0400 222 333");
    // one message per failure: the summary and the field say it, no toast lies over the fields
    if (js) await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
    await expectAccessible(page);

    await dialog.getByLabel("Phone").fill("0400 555 666");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect(page).toHaveURL(/\/student\/profile$/);
    await expectMessage(page, js, "Profile updated successfully");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const field = (label: string) => page.getByText(label, { exact: true }).locator("xpath=following-sibling::dd[1]");
    await expect(field("Phone")).toHaveText("0400 555 666");
    await expect(field("Address")).toHaveText("7 Jib Lane, Geelong VIC 3220");
    await expect(field("Emergency Contact")).toHaveText("Sky Edits, 0400 222 333");

    // The form opens with the stored values; clearing a field stores nothing
    await page.getByRole("link", { name: "Edit Profile" }).click();
    await expect(page.getByLabel("Phone")).toHaveValue("0400 555 666");
    await page.getByLabel("Address").fill("");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page).toHaveURL(/\/student\/profile$/);
    await expect(field("Address")).toHaveText("Not provided");

    // Cancel closes the form and changes nothing
    await page.getByRole("link", { name: "Edit Profile" }).click();
    await page.getByLabel("Phone").fill("0499 999 999");
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/student\/profile$/);
    await expect(field("Phone")).toHaveText("0400 555 666");
  });

  test("notifications: the count, the list and marking them read", async ({ page, js }) => {
    const student = await registerStudent(page, "Morgan Alerts");
    await signIn(page, student.email);
    await expect(notificationsLink(page)).toHaveText(/1 unread/);
    await notificationsLink(page).click();
    await expect(page).toHaveURL(/\/student\/notifications$/);
    await expect(page.getByText("Morgan Alerts registered as student")).toBeVisible();
    await expect(page.getByText("New", { exact: true })).toHaveCount(1);

    await page.getByRole("button", { name: "Mark all as read" }).click();
    await expectMessage(page, js, "All notifications marked as read");
    await expect(notificationsLink(page)).not.toHaveText(/unread/);
    await expect(page.getByText("New", { exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);

    // Their own edit is no news to them: nothing new
    await page.goto("/student/profile/edit");
    await page.getByLabel("Phone").fill("0400 123 123");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page).toHaveURL(/\/student\/profile$/);
    await expect(notificationsLink(page)).not.toHaveText(/unread/);

    // A new event about the student, by someone else, is unread again
    const db = e2eDb();
    const ids = (await db.get<{ student: string; admin: string }>(
      "select s.id as student, a.id as admin from users s, users a where s.email = ? and a.email = ?",
      student.email,
      DEMO.admin.email,
    ))!;
    await db.run(
      "insert into events (id, actor_id, subject_user_id, type, entity_type, entity_id, message, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)",
      crypto.randomUUID(),
      ids.admin,
      ids.student,
      "student.updated",
      "user",
      ids.student,
      "Morgan Alerts's record was updated by the training office",
      new Date(Date.now() + 1000).toISOString(),
    );
    await page.reload();
    await expect(notificationsLink(page)).toHaveText(/1 unread/);
    await notificationsLink(page).click();
    await expect(page.getByRole("main").getByRole("listitem").first()).toContainText("record was updated by the training office");
  });
});

test.describe("student portal: certificate download", () => {
  test("Download PDF saves the statement named by number and learner from the certificate route", async ({ page, js }) => {
    await signInAt(page, DEMO.student.email, "/student/certificates");
    const link = page.getByRole("link", { name: /^Download PDF/ }).first();
    const id = (await link.getAttribute("href"))!.split("/")[2];
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^SoA-[A-Z]+-\\d{4}-\\d+-${DEMO.student.name.replace(/ /g, "-")}\\.pdf$`));
    if (js) await expectMessage(page, js, "Certificate downloaded successfully");
  });

  test("a download is saved and confirmed, and a failure is reported", async ({ page, js }) => {
    await signInAt(page, DEMO.student.email, "/student/certificates");
    const link = page.getByRole("link", { name: /^Download PDF/ }).first();
    const id = (await link.getAttribute("href"))!.split("/")[2];

    await page.route("**/certificates/*/download", (route) =>
      route.fulfill({
        status: 200,
        contentType: "application/pdf",
        headers: { "Content-Disposition": `attachment; filename="SoA-test-${id}.pdf"` },
        body: Buffer.from("%PDF-1.4\n%%EOF\n"),
      }),
    );
    const [saved] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(saved.suggestedFilename()).toBe(`SoA-test-${id}.pdf`);
    expect(await saved.failure()).toBeNull();
    if (js) await expectMessage(page, js, "Certificate downloaded successfully");

    await page.unroute("**/certificates/*/download");
    await page.route("**/certificates/*/download", (route) =>
      route.fulfill({ status: 404, contentType: "application/json", body: JSON.stringify({ detail: "Certificate not found" }) }),
    );
    let downloads = 0;
    page.on("download", () => downloads++);
    await link.click();
    // With JavaScript the student is told by a toast and stays put; without it the browser shows
    // the route's answer (nothing is saved as a broken PDF: the link has no download attribute,
    // success is saved because the route answers Content-Disposition: attachment).
    if (js) {
      await expectMessage(page, js, "Failed to download certificate");
      await expect(page).toHaveURL(/\/student\/certificates$/);
    } else {
      await expect(page.getByText("Certificate not found")).toBeVisible();
    }
    expect(downloads).toBe(0);
  });
});

test.describe("student portal: invoices", () => {
  test("a learner finds the credit note the office issued against their invoice, with what is owed, and downloads it; another's is not found", async ({
    page,
    js,
  }) => {
    const course = await insertCourse();
    const learner = await registerStudent(page, "Riley Refund");
    // the learner enrols through the /api (as an app would), paying by card: the invoice is paid
    const login = await page.request.post("/api/auth/login", { data: { email: learner.email, password: learner.password } });
    const bearer = { Authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
    const enrolled = await page.request.post("/api/enrollments", { headers: bearer, data: { course_id: course.id } });
    expect(enrolled.status(), await enrolled.text()).toBe(201);
    const invoice = (await e2eDb().get<{ id: string; number: string }>(
      "select i.id, i.number from invoices i join users u on u.id = i.buyer_id where i.buyer_kind = 'learner' and u.email = ?",
      learner.email,
    ))!;

    // the office refunds $400.00 of it
    await signInAt(page, DEMO.admin.email, `/admin/finance/${invoice.id}`);
    const reason = "Withdrew 12 business days before the class: 80% kept under the policy";
    const note = await officeIssuesCreditNote(page, js, "400.00", reason);
    await signOut(page);

    await signInAt(page, learner.email, "/student/invoices");
    await expectBuyerCreditNote(page, "/student", { invoice: invoice.number, number: note, amount: "$400.00", reason, owed: "$0.00" });
    await expectAccessible(page);
  });
});

test.describe("student portal: access", () => {
  test("only students get in: others go to their own portal, visitors to /login", NO_FORM, async ({ page }) => {
    await page.goto("/student/certificates");
    await expect(page).toHaveURL(/\/login/);
    await signIn(page, DEMO.trainer.email);
    for (const path of ["/student", "/student/courses", "/student/profile/edit", "/student/notifications"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/trainer\/overview$/);
    }
  });

  test("a non-student cannot post to the student forms", NO_FORM, async ({ page }) => {
    await startSignedIn(page, DEMO.trainer.email);
    const response = await page.request.post("/student/profile/edit", { form: { phone: "0400 000 001" }, maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("/dashboard");
  });
});
