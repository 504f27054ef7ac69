import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { e2eDb, insertClass, insertCourse, seatHolder, userId } from "./e2e-db";
import { DEMO, expect, expectAccessible, expectMessage, organisationToday, registerStudent, signInAt, signOut, test, NO_FORM } from "./fixtures";

/**
 * The office's class changes and forms that fail (docs/decisions/023-errors-where-the-eye-is.md):
 * cancelling a class is confirmed and frees its learners to choose another; a seat change says
 * whom it offered a seat; a failed enrolment without JavaScript lands the reader on its errors.
 */

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

async function waiting(classId: string, email: string): Promise<void> {
  await e2eDb().run(
    "insert into class_waitlist (class_id, student_id, status, joined_at, offered_at, offer_expires_at, offer_mailed_at) values (?, ?, 'waiting', ?, null, null, null)",
    classId,
    await userId(email),
    new Date().toISOString(),
  );
}

/** The question a destructive action asks: a dialog with JavaScript, the page's own region without. */
const question = (page: Page, js: boolean, name: string | RegExp) => page.getByRole(js ? "dialog" : "region", { name });

test.describe("the office", () => {
  test("an admin cancels a class through its confirmation; its learner keeps the enrolment and picks another class", async ({ page, js }) => {
    const course = await insertCourse();
    const first = addDays(organisationToday(), 10);
    const doomed = await insertClass(course.id, first, first, 3, DEMO.trainer.email);
    const other = await insertClass(course.id, addDays(first, 7), addDays(first, 7), 2, DEMO.trainer.email);
    const learner = await registerStudent(page, `Cass Cancelled ${crypto.randomUUID().slice(0, 4)}`);
    const enrollmentId = await seatHolder(course.id, doomed.id, learner.email);

    await signInAt(page, DEMO.admin.email, `/admin/courses/${course.id}/classes/${doomed.id}`);
    const roster = page.getByRole("region", { name: /^Learners/ });
    await expect(roster).toContainText(learner.name);
    await page.getByRole("button", { name: "Cancel this class" }).click();
    const ask = question(page, js, /^Cancel the class of/);
    await expect(ask).toContainText("keeps their enrolment in the course");
    await expect(ask).toContainText(learner.name);
    if (!js) await expect(ask).toBeFocused();
    await expectAccessible(page);
    // nothing happens until the answer is yes
    expect((await e2eDb().get<{ cancelled_at: string | null }>("select cancelled_at from classes where id = ?", doomed.id))?.cancelled_at).toBeNull();
    await ask.getByRole("button", { name: "Yes, cancel the class" }).click();
    await expectMessage(page, js, "Class cancelled");
    const freed = await e2eDb().get<{ class_id: string | null; status: string }>("select class_id, status from enrollments where id = ?", enrollmentId);
    expect(freed).toEqual({ class_id: null, status: "enrolled" });
    await page.goto("/admin/courses");
    await signOut(page);

    await signInAt(page, learner.email, `/enroll/${course.id}`);
    await expect(page.getByText("Your class was cancelled. You are still enrolled in this course: choose another class.")).toBeVisible();
    const radios = page.getByRole("group", { name: "Choose a class" }).getByRole("radio");
    await expect(radios).toHaveCount(1);
    await expect(radios.first()).toBeChecked();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Choose this class" }).click();
    await expect(page).toHaveURL(/\/student\/courses$/);
    await expectMessage(page, js, "Class chosen");
    const placed = await e2eDb().get<{ id: string; class_id: string | null }>(
      "select e.id, e.class_id from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?",
      learner.email,
      course.id,
    );
    expect(placed).toEqual({ id: enrollmentId, class_id: other.id });
  });

  test("an admin raises a class's seats and is told whom the seat was offered to; the waitlist shows the offer", async ({ page, js }) => {
    const course = await insertCourse();
    const date = addDays(organisationToday(), 14);
    const cls = await insertClass(course.id, date, date, 1, DEMO.trainer.email);
    const holder = await registerStudent(page, `Hana Holder ${crypto.randomUUID().slice(0, 4)}`);
    await seatHolder(course.id, cls.id, holder.email);
    const wren = await registerStudent(page, `Wren Waiting ${crypto.randomUUID().slice(0, 4)}`);
    await waiting(cls.id, wren.email);

    await signInAt(page, DEMO.admin.email, `/admin/courses/${course.id}/classes/${cls.id}`);
    const waitlist = page.getByRole("region", { name: /^Waitlist/ });
    await expect(waitlist).toContainText(wren.name);
    await expect(waitlist).toContainText("Number 1 waiting");
    await expectAccessible(page);
    await page.getByLabel("Seats").fill("2");
    await page.getByRole("button", { name: "Save Class" }).click();
    await expectMessage(
      page,
      js,
      new RegExp(`^Seats raised to 2: a seat was offered to ${wren.name}, the offer expires \\d{1,2} \\w{3} \\d{4}, \\d{1,2}:\\d{2} (am|pm)$`),
    );
    await page.goto(`/admin/courses/${course.id}/classes/${cls.id}`);
    await expect(page.getByRole("region", { name: /^Waitlist/ })).toContainText(/Seat offered until \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} (am|pm)/);
    const offer = await e2eDb().get<{ status: string }>(
      "select w.status from class_waitlist w join users u on u.id = w.student_id where u.email = ?",
      wren.email,
    );
    expect(offer?.status).toBe("offered");
  });

  test("a failed enrolment without JavaScript lands the reader on its error summary, each error a link to its field", async ({ page, js }) => {
    test.skip(js, "with JavaScript the Enroll button waits for the terms box; the class form's summary covers focus with JavaScript");
    await page.setViewportSize({ width: 390, height: 844 });
    const course = await insertCourse();
    const learner = await registerStudent(page, "Terry Terms");
    await signInAt(page, learner.email, `/enroll/${course.id}`);
    await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
    const summary = page.locator("[data-error-summary]");
    await expect(summary).toBeFocused();
    await expect(summary).toBeInViewport();
    const link = summary.getByRole("link", { name: "Please agree to the terms and conditions" });
    await expect(link).toHaveAttribute("href", "#terms");
    await link.click();
    await expect(page.locator("#terms")).toBeInViewport();
    expect(
      await e2eDb().get<{ n: number }>("select count(*) as n from enrollments e join users u on u.id = e.student_id where u.email = ?", learner.email),
    ).toEqual({ n: 0 });
  });

  test("deactivating a staff account asks first, naming whose account and what it stops", async ({ page, js }) => {
    const staff = await registerStudent(page, `Tess Trainer ${crypto.randomUUID().slice(0, 4)}`);
    await e2eDb().run("update users set role = 'trainer', approval_status = 'approved' where email = ?", staff.email);
    await signInAt(page, DEMO.admin.email, "/admin/staff");
    await page.getByRole("button", { name: `Deactivate ${staff.name}` }).click();
    const ask = question(page, js, `Deactivate ${staff.name}'s account?`);
    await expect(ask).toContainText("can no longer sign in");
    if (!js) await expect(ask).toBeFocused();
    await expectAccessible(page);
    expect(await e2eDb().get<{ is_active: number }>("select is_active from users where email = ?", staff.email)).toEqual({ is_active: 1 });
    await ask.getByRole("button", { name: "Yes, deactivate" }).click();
    await expectMessage(page, js, `${staff.name}'s account was deactivated`);
    expect(await e2eDb().get<{ is_active: number }>("select is_active from users where email = ?", staff.email)).toEqual({ is_active: 0 });
  });
});

test.describe("the office's smaller things", () => {
  test("a trainer's past class is labelled past; the admin's student view and Edit Student speak plainly", NO_FORM, async ({ page }) => {
    const course = await insertCourse();
    await insertClass(course.id, addDays(organisationToday(), -30), addDays(organisationToday(), -29), 3, DEMO.trainer.email);
    await signInAt(page, DEMO.trainer.email, "/trainer/classes");
    const row = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: `${course.unit_code} ${course.name}` }) });
    await expect(row.getByText("Past", { exact: true })).toBeVisible();
    await signOut(page);

    const learner = await registerStudent(page, `Plain Words ${crypto.randomUUID().slice(0, 4)}`);
    const { id, student_number } = (await e2eDb().get<{ id: string; student_number: string }>(
      "select id, student_number from users where email = ?",
      learner.email,
    ))!;
    await signInAt(page, DEMO.admin.email, `/admin/students/${id}`);
    const profile = page.getByRole("dialog", { name: "Student Profile" });
    await expect(profile).toContainText(`Student no.: ${student_number}`);
    // the student number is the learner's number; no cut internal id beside it
    await expect(profile).not.toContainText("Student ID");
    await expect(profile).not.toContainText(id.slice(-8));

    await page.goto(`/admin/students/${id}/edit`);
    const form = page.getByRole("dialog", { name: "Edit Student" });
    // the office fills the survey question for the learner: the hint speaks of them, not to them
    await expect(form.getByText("Whether NCVER may invite the learner to its student outcomes survey")).toBeVisible();
    await expect(form.getByText(/invite you/)).toHaveCount(0);
    // every tick box is the same size, however long its label
    const boxes = form.getByRole("checkbox");
    const sizes = new Set<string>();
    for (const box of await boxes.all()) {
      const b = (await box.boundingBox())!;
      sizes.add(`${Math.round(b.width)}x${Math.round(b.height)}`);
    }
    expect([...sizes]).toEqual(["20x20"]);
  });
});

test("a class's time fields show their whole time on a 360 px phone", NO_FORM, async ({ page }) => {
  const course = await insertCourse();
  const day = addDays(organisationToday(), 12);
  const cls = await insertClass(course.id, day, day, 3, DEMO.trainer.email);
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAt(page, DEMO.admin.email, `/admin/courses/${course.id}/classes/${cls.id}`);
  const starts = page.getByLabel("Session 1 starts");
  await expect(starts).toBeVisible();
  // "07:00 am" with its clock button needs about 150 px; two fields side by side at 360 px got 130
  for (const label of ["Session 1 starts", "Session 1 ends"]) {
    const box = (await page.getByLabel(label).boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(150);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
