import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { addDays } from "../../app/utils/organisation-calendar";
import { e2eDb, insertClass, rightReviewAnswers } from "./e2e-db";
import {
  DEMO,
  expect,
  expectAccessible,
  expectMessage,
  organisationToday,
  registerStudent,
  signIn,
  startSignedIn,
  signInAt,
  signOut,
  test,
  NO_FORM,
} from "./fixtures";

/**
 * The trainer portal against the production build, with and without JavaScript: every figure
 * is checked against the database, and a trainer takes a fresh student (registered and
 * enrolled through the app) from enrolled to a certificate the student can download. Tests
 * make their own students; the demo student's records are only read.
 */

const DOGGING = "Licence to perform dogging (DG)";

async function courseId(name: string): Promise<string> {
  const row = await e2eDb().get<{ id: string }>("select id from courses where name = ? and is_active = 1", name);
  if (!row) throw new Error(`no active course ${name}`);
  return row.id;
}

function enrollmentOf(email: string, course: string) {
  return e2eDb().get<{ id: string; status: string; progress_percentage: number; completion_date: string | null }>(
    `select e.id, e.status, e.progress_percentage, e.completion_date from enrollments e
       join users u on u.id = e.student_id join courses c on c.id = e.course_id
      where u.email = ? and c.name = ?`,
    email,
    course,
  );
}

function certificatesOf(enrollmentId: string) {
  return e2eDb().all<{ id: string; certificate_number: string; tier_achieved: string }>(
    "select id, certificate_number, tier_achieved from certificates where enrollment_id = ?",
    enrollmentId,
  );
}

/** A unique, readable name, so rows are found by name while tests run side by side. */
function uniqueName(first: string): string {
  const letters = crypto
    .randomBytes(4)
    .toString("hex")
    .replace(/[0-9]/g, (d) => "qrstuvwxyz"[Number(d)]!);
  return `${first} Zed${letters}`;
}

/** A fresh student who registers and enrols in a course through the app's own forms. */
async function enrolledStudent(page: Page, first: string, course = DOGGING) {
  const name = uniqueName(first);
  const student = await registerStudent(page, name);
  await signIn(page, student.email);
  // the demo's licence courses ask for the pre-enrolment review first (docs/decisions/028)
  expect((await page.request.post(`/courses/${await courseId(course)}/review`, { form: await rightReviewAnswers(), maxRedirects: 0 })).status()).toBe(302);
  await page.goto(`/enroll/${await courseId(course)}`);
  await page.getByLabel(/I agree to the terms and conditions/).check();
  await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
  await expect(page).toHaveURL(/\/student\/courses$/);
  await signOut(page);
  expect((await enrollmentOf(student.email, course))?.status).toBe("enrolled");
  return { ...student, name };
}

/** Searches "My Students" the way the page offers: typing (JavaScript) or the Search button. */
async function searchStudents(page: Page, js: boolean, term: string) {
  await page.getByLabel("Search students").fill(term);
  if (js) await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(term).replace(/%20/g, "\\+")}`));
  else await page.getByRole("button", { name: "Search" }).click();
}

function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-trainer-"));
  try {
    fs.writeFileSync(path.join(dir, "c.pdf"), bytes);
    return execFileSync("pdftotext", ["-enc", "UTF-8", path.join(dir, "c.pdf"), "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The overview's four figures, computed here straight from the tables by their definitions. */
async function expectedFigures() {
  const one = async (q: string) => (await e2eDb().get<{ n: number }>(q))!.n;
  return {
    "My Students": await one(`select count(*) as n from users u where u.role = 'student' and u.is_active = 1
        and exists (select 1 from enrollments e where e.student_id = u.id and e.status in ('enrolled','in_progress'))`),
    "Pending Assessments": await one(`select count(*) as n from (
        select e.status,
          (select a.status from assessments a where a.enrollment_id = e.id
            order by substr(a.assessment_date, 1, 10) desc, a.created_at desc limit 1) as latest
          from enrollments e join users u on u.id = e.student_id
         where u.role = 'student' and u.is_active = 1 and e.status in ('enrolled','in_progress')) as current
        where latest in ('in_progress','resubmission') or (latest is null and status = 'in_progress')`),
    "Certificates Issued": await one("select count(*) as n from certificates"),
    "Active Courses": await one("select count(*) as n from courses where is_active = 1"),
  };
}

async function readFigure(page: Page, label: string): Promise<number> {
  const value = page.locator("p", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::p[1]");
  return Number(await value.innerText());
}

test.describe("trainer portal", () => {
  test("/trainer is for trainers only and opens on the overview", NO_FORM, async ({ page }) => {
    await page.goto("/trainer/assessments");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Ftrainer%2Fassessments/);
    await signInAt(page, DEMO.admin.email, "/trainer/certificates");
    await expect(page).toHaveURL(/\/admin\/overview$/);
    await signOut(page);
    await signInAt(page, DEMO.trainer.email, "/trainer");
    await expect(page).toHaveURL(/\/trainer\/overview$/);
    await expect(page.getByText("Trainer Portal").first()).toBeVisible();
    await expect(page.getByText(DEMO.trainer.name).first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  });

  test("the overview's figures, students and tasks come from the database", NO_FORM, async ({ page }) => {
    await signInAt(page, DEMO.trainer.email, "/trainer/overview");
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back, Sam!" })).toBeVisible();
    // Other tests change the data while this runs, so compare page and database until they agree.
    await expect(async () => {
      await page.reload();
      const shown: Record<string, number> = {};
      for (const label of ["My Students", "Pending Assessments", "Certificates Issued", "Active Courses"]) {
        shown[label] = await readFigure(page, label);
      }
      expect(shown).toEqual(await expectedFigures());
    }).toPass({ timeout: 20_000 });
    await expect(page.getByText("Current enrolments whose latest assessment is in progress").first()).toBeVisible();

    // My Students: the first 8 by name, each current course with its real progress.
    const table = page.getByRole("table", { name: /first 8 students/ });
    const rowGroups = table.locator("tbody");
    expect(await rowGroups.count()).toBeLessThanOrEqual(8);
    expect(await rowGroups.count()).toBeGreaterThan(0);
    const jordan = rowGroups.filter({ hasText: DEMO.student.name });
    if ((await jordan.count()) > 0) {
      await expect(jordan.getByRole("progressbar", { name: /rigging intermediate level \(RI\) progress/ })).toHaveAttribute("aria-valuenow", "65");
    }
    // Quick actions and tasks link to the places to act.
    await expect(page.getByRole("link", { name: "Review assessments" })).toHaveAttribute("href", "/trainer/assessments");
    await expect(page.getByRole("link", { name: "Issue certificates" })).toHaveAttribute("href", "/trainer/certificates");
    const tasks = page.locator("section").filter({ has: page.getByRole("heading", { name: "Pending Tasks" }) });
    await expect(tasks.getByRole("link", { name: /Record assessment for Jordan Mitchell, Licence to perform rigging intermediate level/ })).toHaveAttribute(
      "href",
      /\/trainer\/assessments\/new\?enrollment=/,
    );
  });

  test("students: search as you type or with the button, real progress, last assessment, paging", async ({ page, js }) => {
    await signInAt(page, DEMO.trainer.email, "/trainer/students");
    await expect(page.getByRole("heading", { level: 1, name: "My Students" })).toBeVisible();

    await searchStudents(page, js, "student@example.com");
    const jordan = page.locator("tbody").filter({ hasText: DEMO.student.name });
    await expect(jordan).toHaveCount(1);
    await expect(page.locator("tbody")).toHaveCount(1);
    const ri = jordan.locator("tr").filter({ hasText: "rigging intermediate level (RI)" });
    await expect(ri.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "65");
    await expect(ri.getByText("In Progress", { exact: true }).last()).toBeVisible();
    await expect(ri.getByText("Practical")).toBeVisible();
    await expect(jordan.locator("tr").filter({ hasText: "tower crane (CT)" }).getByText("Not assessed")).toBeVisible();
    await expect(ri.getByRole("link", { name: /^Record assessment for Jordan Mitchell/ })).toHaveAttribute(
      "href",
      /\/trainer\/assessments\/new\?enrollment=[0-9a-f-]{36}$/,
    );
    await expect(ri.getByRole("link", { name: /^Update progress for Jordan Mitchell/ })).toHaveAttribute("href", /\/trainer\/enrollments\/[0-9a-f-]{36}$/);

    await searchStudents(page, js, "no such learner");
    await expect(page.getByText("No students found")).toBeVisible();

    // Paging over a search that matches 11 students: 10, then 1.
    const prefix = "Pagingtest";
    // Both projects of a dialect share its server's database: the first test to get here makes
    // the eleven students, and a second one running alongside adds nothing (on conflict).
    const existing = (await e2eDb().get<{ n: number }>("select count(*) as n from users where full_name like ?", `${prefix} %`))!.n;
    if (existing < 11) {
      const now = new Date().toISOString();
      const course = await courseId(DOGGING);
      for (let i = 1; i <= 11; i++) {
        const email = `pagingtest-${String(i).padStart(2, "0")}@test.example`;
        await e2eDb().run(
          `insert into users (id, email, full_name, password_hash, role, is_active, approval_status, created_at, updated_at)
           values (?, ?, ?, 'x', 'student', 1, 'approved', ?, ?) on conflict do nothing`,
          crypto.randomUUID(),
          email,
          `${prefix} ${String(i).padStart(2, "0")}`,
          now,
          now,
        );
        await e2eDb().run(
          `insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, updated_at)
           select ?, id, ?, 'in_progress', ?, ?, ? from users where email = ? on conflict do nothing`,
          crypto.randomUUID(),
          course,
          i * 5,
          now,
          now,
          email,
        );
      }
    }
    await searchStudents(page, js, prefix);
    await expect(page.getByText("Showing 1–10 of 11 students (page 1 of 2)")).toBeVisible();
    await expect(page.locator("tbody")).toHaveCount(10);
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText("Showing 11–11 of 11 students (page 2 of 2)")).toBeVisible();
    await expect(page.locator("tbody")).toHaveCount(1);
    await expect(page.locator("tbody").getByText(`${prefix} 11`)).toBeVisible();
    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page.getByText("page 1 of 2")).toBeVisible();
  });

  test("assessments: counts by status match the database, list filters and pages", async ({ page, js }) => {
    await signInAt(page, DEMO.trainer.email, "/trainer/assessments");
    await expect(page.getByRole("heading", { level: 1, name: "Assessments" })).toBeVisible();
    await expect(async () => {
      await page.reload();
      const rows = await e2eDb().all<{ status: string; n: number }>("select status, count(*) as n from assessments group by status");
      for (const status of ["passed", "failed", "in_progress", "resubmission"]) {
        await expect(page.getByTestId(`count-${status}`)).toHaveText(String(rows.find((r) => r.status === status)?.n ?? 0), { timeout: 1000 });
      }
    }).toPass({ timeout: 20_000 });

    await page.getByLabel("Search assessments").fill("Jordan Mitchell");
    await page.getByLabel("Status", { exact: true }).selectOption("failed");
    if (!js) await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/status=failed/);
    const rows = page.getByRole("table", { name: "Assessments, newest first" }).locator("tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("58/100");
    await expect(rows.first()).toContainText("Written");
    await expect(rows.first()).toContainText("Sam Whitfield");

    await page.goto("/trainer/assessments");
    await expect(page.getByText(/page 1 of [2-9]/)).toBeVisible();
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page.getByText(/Showing 21–\d+ of \d+ assessments \(page 2 of/)).toBeVisible();
  });

  test("a trainer takes a fresh student from enrolled to a certificate they can download", async ({ page, js }) => {
    test.slow(); // the certificate's first download renders it in Chromium
    const student = await enrolledStudent(page, "Robin");
    const enrollment = (await enrollmentOf(student.email, DOGGING))!;
    // the training began a week ago (a result is never dated before the training began, nor in the future)
    await e2eDb().run("update enrollments set planned_start_date = ? where id = ?", addDays(organisationToday(), -7), enrollment.id);

    await signInAt(page, DEMO.trainer.email, "/trainer/students");
    await searchStudents(page, js, student.name);
    const row = page.locator("tbody").filter({ hasText: student.name });
    await expect(row.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "0");
    await expect(row.getByText("Not assessed")).toBeVisible();

    // Record an assessment: mistakes come back beside the fields with the values kept.
    await row.getByRole("link", { name: /^Record assessment for/ }).click();
    await expect(page).toHaveURL(new RegExp(`/trainer/assessments/new\\?enrollment=${enrollment.id}$`));
    const dialog = page.getByRole("dialog", { name: "Record assessment" });
    await expect(dialog.getByLabel("Student and course")).toHaveValue(enrollment.id);
    await dialog.getByLabel("Assessment type").selectOption("Practical");
    await dialog.getByLabel("Status").selectOption("passed");
    await dialog.getByLabel("Score", { exact: true }).fill("120");
    await dialog.getByLabel("Max score").fill("100");
    const future = new Date(Date.now() + 3 * 864e5).toISOString().slice(0, 10);
    await dialog.getByLabel("Assessment date").fill(future);
    await dialog.getByRole("button", { name: "Record assessment" }).click();
    await expect(dialog.getByText("Score cannot be more than the max score (100)").first()).toBeVisible();
    await expect(dialog.getByText("Assessment date cannot be in the future").first()).toBeVisible();
    await expect(dialog.getByLabel("Score", { exact: true })).toHaveValue("120");
    await expect(dialog.getByLabel("Score", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(dialog.getByLabel("Assessment type")).toHaveValue("Practical");
    expect(await e2eDb().get("select count(*) as n from assessments where enrollment_id = ?", enrollment.id)).toEqual({ n: 0 });

    await dialog.getByLabel("Score", { exact: true }).fill("88");
    await dialog.getByLabel("Assessment date").fill(organisationToday());
    await dialog.getByLabel("Feedback").fill("Clear hand signals; slings inspected before every lift.");
    await dialog.getByRole("button", { name: "Record assessment" }).click();
    await expect(page).toHaveURL(/\/trainer\/assessments$/);
    await expectMessage(page, js, "Assessment recorded successfully");
    const recorded = page.getByRole("table", { name: "Assessments, newest first" }).locator("tbody tr").filter({ hasText: student.name });
    await expect(recorded).toContainText("88/100");
    await expect(recorded).toContainText("Practical");
    await expect(recorded).toContainText("Sam Whitfield");
    const event = await e2eDb().get(
      "select e.type, a.email as actor from events e join users a on a.id = e.actor_id where e.entity_id = (select id from assessments where enrollment_id = ?)",
      enrollment.id,
    );
    expect(event).toEqual({ type: "assessment.recorded", actor: DEMO.trainer.email });

    // Update progress, then complete: the certificate is issued in the same step.
    await page.goto("/trainer/students");
    await searchStudents(page, js, student.name);
    await page
      .locator("tbody")
      .filter({ hasText: student.name })
      .getByRole("link", { name: /^Update progress for/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/trainer/enrollments/${enrollment.id}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Update progress" })).toBeVisible();
    await page.getByLabel("Progress (%)").fill("150");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Progress must be between 0 and 100").first()).toBeVisible();
    await expect(page.getByLabel("Progress (%)")).toHaveValue("150");
    await page.getByLabel("Progress (%)").fill("70");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expectMessage(page, js, "Enrolment updated successfully");
    await expect(page.getByRole("progressbar", { name: "Course progress" })).toHaveAttribute("aria-valuenow", "70");
    await expect.poll(() => enrollmentOf(student.email, DOGGING)).toMatchObject({ status: "in_progress", progress_percentage: 70 });

    await page.getByLabel("Status").selectOption("completed");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expectMessage(page, js, /Enrolment updated successfully\. Certificate SCR-\d{4}-\d{5} issued\./);
    const after = (await enrollmentOf(student.email, DOGGING))!;
    expect(after).toMatchObject({ status: "completed", progress_percentage: 100 });
    expect(after.completion_date).toBeTruthy();
    const certificates = await certificatesOf(enrollment.id);
    expect(certificates).toHaveLength(1);
    const certificate = certificates[0]!;
    expect(certificate.tier_achieved).toBe("tier_1");
    await expect(page.getByTestId("certificate-number")).toHaveText(certificate.certificate_number);
    await expect(page.getByText("This enrolment is completed and cannot be reopened").first()).toBeVisible();

    // A completed enrollment is never silently reopened, even by a hand-made post.
    const reopen = await page.request.post(`/trainer/enrollments/${enrollment.id}`, {
      form: { progress: "10", status: "in_progress", reopen: "on" },
      maxRedirects: 0,
    });
    expect(reopen.status()).toBe(409);
    expect(await enrollmentOf(student.email, DOGGING)).toMatchObject({ status: "completed", progress_percentage: 100 });
    // A second "complete" (a double submit) issues nothing more.
    const again = await page.request.post(`/trainer/enrollments/${enrollment.id}`, { form: { progress: "100", status: "completed" }, maxRedirects: 0 });
    expect(again.status()).toBe(302);
    expect(await certificatesOf(enrollment.id)).toHaveLength(1);

    // The certificate is listed and downloads as the right PDF.
    await page.goto("/trainer/certificates");
    const issued = page
      .getByRole("table", { name: /most recently issued/ })
      .locator("tbody tr")
      .filter({ hasText: certificate.certificate_number });
    await expect(issued).toContainText(student.name);
    await expect(issued).toContainText(DOGGING);
    await expect(issued).toContainText("Tier 1");
    await expectAccessible(page);
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      issued.getByRole("link", { name: `Download PDF of certificate ${certificate.certificate_number}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`SoA-${certificate.certificate_number}-${student.name.replace(/ /g, "-")}.pdf`);
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdfText(bytes);
    expect(text).toContain(certificate.certificate_number);
    expect(text).toContain(student.name);

    // The student sees it in their portal.
    await signOut(page);
    await signInAt(page, student.email, "/student/certificates");
    await expect(page.getByText(certificate.certificate_number)).toBeVisible();
    const notice = (await e2eDb().get<{ message: string }>("select message from events where type = 'certificate.issued' and entity_id = ?", certificate.id))!;
    expect(notice.message).toBe(`Certificate ${certificate.certificate_number} issued for ${DOGGING}`);
  });

  test("completing needs a passed assessment; a withdrawn enrollment is only reopened on purpose", async ({ page, js }) => {
    const student = await enrolledStudent(page, "Alexis");
    const enrollment = (await enrollmentOf(student.email, DOGGING))!;
    // A class of its own: the seat this test frees by withdrawing must still be there when it
    // reopens, whatever the journeys running beside it book in the demo's dogging classes.
    const own = await insertClass(await courseId(DOGGING), "2030-03-04", "2030-03-11", 1, DEMO.trainer.email);
    // the planned dates the office keeps on the enrolment show to the trainer (read-only)
    await e2eDb().run(
      "update enrollments set class_id = ?, planned_start_date = ?, planned_end_date = ? where id = ?",
      own.id,
      "2030-03-04",
      "2030-03-11",
      enrollment.id,
    );
    await signInAt(page, DEMO.trainer.email, `/trainer/enrollments/${enrollment.id}`);
    await expect(page.getByRole("definition").filter({ hasText: "4 Mar 2030" })).toBeVisible();
    await expect(page.getByText("Planned start", { exact: true })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: "11 Mar 2030" })).toBeVisible();
    await page.getByLabel("Progress (%)").fill("40");
    await page.getByLabel("Status").selectOption("completed");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Record a passed assessment before completing this enrolment").first()).toBeVisible();
    if (js) await expect(page.locator("[data-sonner-toast]"), "one message per failure: no toast over the fields").toHaveCount(0);
    await expect(page.getByLabel("Status")).toHaveValue("completed");
    expect(await enrollmentOf(student.email, DOGGING)).toMatchObject({ status: "enrolled", progress_percentage: 0 });

    await page.getByLabel("Progress (%)").fill("25");
    await page.getByLabel("Status").selectOption("enrolled");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText(/Progress above 0% means the course has started/).first()).toBeVisible();

    await page.getByLabel("Status").selectOption("withdrawn");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expectMessage(page, js, "Enrolment updated successfully");
    await expect.poll(() => enrollmentOf(student.email, DOGGING)).toMatchObject({ status: "withdrawn", progress_percentage: 25 });
    await expect(page.getByLabel("Reopen this withdrawn enrolment")).toBeVisible();

    await page.getByLabel("Status").selectOption("in_progress");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText(/This enrolment is withdrawn\. To reinstate it/).first()).toBeVisible();
    expect((await enrollmentOf(student.email, DOGGING))?.status).toBe("withdrawn");
    await page.getByLabel("Status").selectOption("in_progress");
    await page.getByLabel("Reopen this withdrawn enrolment").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(async () => (await enrollmentOf(student.email, DOGGING))?.status).toBe("in_progress");
    await expect(page.getByLabel("Reopen this withdrawn enrolment")).toHaveCount(0);
    await expectMessage(page, js, "Enrolment updated successfully");

    // A withdrawn or completed enrolment cannot take an assessment.
    const trainerId = (await e2eDb().get<{ id: string }>("select id from users where email = ?", DEMO.trainer.email))!.id;
    await e2eDb().run("update enrollments set status = 'withdrawn' where id = ?", enrollment.id);
    await page.goto(`/trainer/assessments/new?enrollment=${enrollment.id}`);
    await expect(page.getByText(/is withdrawn: assessments can only be recorded for a current enrolment/)).toBeVisible();
    const posted = await page.request.post(`/trainer/assessments/new`, {
      form: { enrollment_id: enrollment.id, assessment_type: "Written", status: "passed", score: "9", max_score: "10", assessment_date: organisationToday() },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(409);
    expect(await e2eDb().get("select count(*) as n from assessments where enrollment_id = ? and assessed_by = ?", enrollment.id, trainerId)).toEqual({ n: 0 });
  });

  test("Issue Certificate issues once; a second submit says so and creates nothing", async ({ page, js }) => {
    // A course completed before certificates were issued on completion (or imported): it waits.
    const student = await enrolledStudent(page, "Jamie");
    const enrollment = (await enrollmentOf(student.email, DOGGING))!;
    await e2eDb().run(
      "update enrollments set status = 'completed', progress_percentage = 100, completion_date = ? where id = ?",
      new Date(Date.now() - 5 * 864e5).toISOString(),
      enrollment.id,
    );

    await signInAt(page, DEMO.trainer.email, "/trainer/certificates");
    await expect(page.getByRole("heading", { level: 1, name: "Certificates" })).toBeVisible();
    const awaiting = page
      .getByRole("table", { name: /awaiting a certificate/ })
      .locator("tbody tr")
      .filter({ hasText: student.name });
    await expect(awaiting).toContainText(DOGGING);
    await expectAccessible(page);
    await awaiting.getByRole("button", { name: `Issue Certificate for ${student.name}, ${DOGGING}` }).click();
    await expectMessage(page, js, `Certificate issued successfully`);
    await expect(
      page
        .getByRole("table", { name: /awaiting a certificate/ })
        .locator("tbody tr")
        .filter({ hasText: student.name }),
    ).toHaveCount(0);
    const certificates = await certificatesOf(enrollment.id);
    expect(certificates).toHaveLength(1);
    await expect(
      page
        .getByRole("table", { name: /most recently issued/ })
        .locator("tbody tr")
        .filter({ hasText: certificates[0]!.certificate_number }),
    ).toContainText(student.name);

    // The same form posted again (a double submit, or the back button): nothing new.
    const second = await page.request.post("/trainer/certificates", { form: { enrollment_id: enrollment.id }, maxRedirects: 0 });
    expect(second.status()).toBe(302);
    await page.goto("/trainer/certificates");
    await expectMessage(page, js, `Certificate ${certificates[0]!.certificate_number} was already issued`);
    expect(await certificatesOf(enrollment.id)).toHaveLength(1);
    const events = await e2eDb().get("select count(*) as n from events where type = 'certificate.issued' and entity_id = ?", certificates[0]!.id);
    expect(events).toEqual({ n: 1 });

    // An enrolment still in progress cannot be certified: invalid for its state (422), whatever
    // the student's USI.
    await signOut(page);
    const other = await enrolledStudent(page, "Morgan");
    await startSignedIn(page, DEMO.trainer.email);
    const refused = await page.request.post("/trainer/certificates", {
      form: { enrollment_id: (await enrollmentOf(other.email, DOGGING))!.id },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(422);
    expect(await certificatesOf((await enrollmentOf(other.email, DOGGING))!.id)).toHaveLength(0);
  });

  test("the record-assessment form has its own URL and closes back to the list", async ({ page }) => {
    await signInAt(page, DEMO.trainer.email, "/trainer/assessments/new");
    const dialog = page.getByRole("dialog", { name: "Record assessment" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Student and course")).toHaveValue("");
    // no result is assumed: type and status start unchosen
    await expect(dialog.getByLabel("Assessment type")).toHaveValue("");
    await expect(dialog.getByLabel("Status", { exact: true })).toHaveValue("");
    await dialog.getByRole("button", { name: "Record assessment" }).click();
    await expect(dialog.getByText("Choose the student's enrolment").first()).toBeVisible();
    await expect(dialog.getByText(/^Choose the assessment type/).first()).toBeVisible();
    await expect(dialog.getByText(/^Choose the status/).first()).toBeVisible();
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/trainer\/assessments$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.goto(`/trainer/enrollments/${crypto.randomUUID()}`);
    await expect(page.getByText("Enrolment not found")).toBeVisible();
  });
});
