import crypto from "node:crypto";
import { e2eDb } from "./e2e-db";
import { DEMO, expect, expectAccessible, expectMessage, registerStudent, signInAt, signOut, test } from "./fixtures";

/**
 * The improvement register and the learner questionnaire, with and without JavaScript: an admin
 * raises an action, is refused closing it without evidence, and closes it with evidence; a
 * learner whose enrolment a trainer completes answers the questionnaire from the emailed link,
 * signed out, once; the admin sees the answers in the report, without the learner's name. Each
 * run makes its own rows (the js and no-js projects share one database).
 */

// several pages, forms and accessibility checks in one journey, on a machine shared with other runs
test.setTimeout(180_000);

function tag(): string {
  return crypto
    .randomBytes(4)
    .toString("hex")
    .replace(/[0-9]/g, (d) => "qrstuvwxyz"[Number(d)]!);
}

test("an admin raises an improvement action and closes it with its evidence", async ({ page, js }) => {
  const t = tag();
  await signInAt(page, DEMO.admin.email, "/admin/improvements");
  await expect(page.getByRole("heading", { level: 1, name: "Improvement register" })).toBeVisible();
  // the demo's overdue action is listed first
  await expect(page.locator("tbody tr").first()).toContainText("Overdue");

  await page.getByRole("link", { name: "Raise an action" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Raise an improvement action" })).toBeVisible();
  await page.getByRole("button", { name: "Raise action" }).click();
  // the description is blank: refused, nothing stored
  await expect(page.getByRole("alert").filter({ hasText: "Description is required" })).toBeVisible();
  await page.getByLabel("Source", { exact: true }).selectOption("audit");
  await page.getByLabel("Source reference").fill(`Audit ${t}`);
  await page.getByLabel("Description").fill(`Toolbox talk records are missing signatures ${t}`);
  await page.getByLabel("Owner").selectOption({ label: "Sam Whitfield" });
  await page.getByRole("button", { name: "Raise action" }).click();
  await expectMessage(page, js, "Improvement action raised");
  await expect(page.getByRole("heading", { level: 1, name: "Improvement action" })).toBeVisible();
  const id = page.url().split("/").pop()!;

  await page.getByRole("button", { name: "Close action" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Closing an action needs what was done and its closure evidence" })).toBeVisible();
  expect(await e2eDb().get("select status from improvement_actions where id = ?", id)).toEqual({ status: "open" });
  await expectAccessible(page);
  await page.getByLabel("What was done").fill("Every trainer re-briefed; the sign-off sheet has a signature box per attendee.");
  await page.getByLabel("Closure evidence").fill(`Sign-off sheet v2 in the quality folder ${t}`);
  await page.getByRole("button", { name: "Close action" }).click();
  await expectMessage(page, js, "Improvement action closed");
  await expect(page.getByText(`Sign-off sheet v2 in the quality folder ${t}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Close action" })).toHaveCount(0);
  expect(await e2eDb().get("select status from improvement_actions where id = ?", id)).toEqual({ status: "closed" });
  const audit = await e2eDb().all<{ action: string }>("select action from audit_log where subject_id = ? order by id", id);
  expect(audit.map((a) => a.action)).toEqual(["improvement.raised", "improvement.closed"]);

  await page.goto("/admin/improvements?status=closed&source_type=audit");
  await expect(page.getByRole("link", { name: new RegExp(`Toolbox talk records are missing signatures ${t}`) })).toBeVisible();
  const csv = await page.request.get("/admin/improvements.csv?status=closed&source_type=audit");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain(`Sign-off sheet v2 in the quality folder ${t}`);
});

test("a learner who completed answers the questionnaire once, and the admin sees the summary", async ({ page, js }) => {
  const t = tag();
  const student = await registerStudent(page, `Quin Answer${t}`);
  const course = (await e2eDb().get<{ id: string; name: string }>("select id, name from courses where is_active = 1 order by name limit 1"))!;
  const trainer = (await e2eDb().get<{ id: string }>("select id from users where email = ?", DEMO.trainer.email))!;
  const learner = (await e2eDb().get<{ id: string }>("select id from users where email = ?", student.email))!;
  const enrollmentId = crypto.randomUUID();
  const now = new Date().toISOString();
  await e2eDb().run(
    "insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, updated_at) values (?, ?, ?, 'in_progress', 80, ?, ?)",
    enrollmentId,
    learner.id,
    course.id,
    now,
    now,
  );
  await e2eDb().run(
    "insert into assessments (id, enrollment_id, student_id, course_id, assessment_type, status, score, max_score, assessment_date, feedback, assessed_by, created_at) values (?, ?, ?, ?, 'Practical', 'passed', 90, 100, ?, null, ?, ?)",
    crypto.randomUUID(),
    enrollmentId,
    learner.id,
    course.id,
    now,
    trainer.id,
    now,
  );

  // the trainer completes the enrolment: the invitation is queued with it
  await signInAt(page, DEMO.trainer.email, `/trainer/enrollments/${enrollmentId}`);
  await page.getByLabel("Status").selectOption("completed");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expectMessage(page, js, /Enrolment updated successfully/);
  await signOut(page);
  const invitation = await e2eDb().all<{ data: string }>(
    "select data from outbox_messages where key = ?",
    `questionnaire-invitation:completion:${enrollmentId}`,
  );
  expect(invitation).toHaveLength(1);
  const path = (JSON.parse(invitation[0]!.data) as { path: string }).path;

  // signed out, from the link
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: "How did it go?" })).toBeVisible();
  await page.getByRole("button", { name: "Send my answers" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Choose a rating from 1 to 5" })).toBeVisible();
  const groups = page.getByRole("group");
  const count = await groups.count();
  for (let i = 0; i < count; i++) await groups.nth(i).getByRole("radio", { name: /^4/ }).check();
  await page.getByLabel(/What one thing would you change\?/).fill(`More time on the tag lines ${t}`);
  await page.getByRole("button", { name: "Send my answers" }).click();
  await expectMessage(page, js, "Thank you: your answers were received");
  await expect(page.getByRole("heading", { level: 1, name: "Thank you" })).toBeVisible();
  // the link answers once
  await page.goto(path);
  await expect(page.getByText("This questionnaire has already been answered")).toBeVisible();
  const again = await page.request.post(path, { form: { x: "1" }, maxRedirects: 0 });
  expect(again.status()).toBe(409);

  await signInAt(page, DEMO.admin.email, "/admin/questionnaires/report?audience=learner");
  await expect(page.getByRole("heading", { level: 1, name: "Questionnaire report" })).toBeVisible();
  await expect(page.getByText(`More time on the tag lines ${t}`)).toBeVisible();
  await expect(page.getByText(`Quin Answer${t}`)).toHaveCount(0);
  await expect(page.getByText(/Average \d\.\d\d from \d+ ratings?/).first()).toBeVisible();
  const year = new Date().getFullYear();
  const annual = await page.request.get(`/admin/questionnaires/annual.csv?audience=learner&year=${year}`);
  expect(annual.headers()["content-disposition"]).toContain(`learner-questionnaire-summary-${year}.csv`);
  const text = await annual.text();
  expect(text).toContain("average");
  expect(text).not.toContain(student.email);

  // a low score raises an action prefilled with its question
  await page.getByRole("link", { name: /Raise an improvement action from: The training yard and equipment were ready/ }).click();
  await expect(page.getByText("Raised from: Learner questionnaire")).toBeVisible();
  await expect(page.getByLabel("Source", { exact: true })).toHaveValue("questionnaire");
});
