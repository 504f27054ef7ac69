import crypto from "node:crypto";
import { e2eDb, insertCourse, insertStaff, userId } from "./e2e-db";
import { expect, expectMessage, organisationToday, signInAt, signOut, test } from "./fixtures";
import { mailedLink } from "./mailed-link";

/**
 * An RPL's third-party report and competency sessions (issue 56, docs/decisions/037-recognition.md),
 * with and without JavaScript: the assessor asks a referee for a report and books a competency
 * conversation (a second booking at the same time is refused, the first is moved); the referee
 * opens the mailed link signed out and reports once (the link then says so, and an unknown link
 * is refused); the assessor reads the report and cancels the session; the learner sees the
 * session and that the report arrived, not what it says.
 */

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

test("the assessor asks a referee and books a competency conversation; the referee reports by link; the learner sees both", async ({ page, js }) => {
  test.setTimeout(180_000);
  // an assessor of the spec's own (nobody else books them), credentialed before the course is made so it credits them the unit
  const assessorEmail = await insertStaff("trainer", "Quinn Assessor");
  const assessor = await userId(assessorEmail);
  const now = new Date().toISOString();
  await e2eDb().run(
    "insert into trainer_credentials (id, trainer_id, credential, supervisor_id, issued_on, expires_on, note, recorded_by, recorded_at) values (?, ?, 'TAE40122', null, '2000-01-01', null, null, ?, ?)",
    crypto.randomUUID(),
    assessor,
    assessor,
    now,
  );
  const course = await insertCourse({ name: `Conduct rigging ${crypto.randomUUID().slice(0, 6)}` });
  const learnerEmail = await insertStaff("student", "Taylor Witnessed");
  const learner = await userId(learnerEmail);
  const enrollment = crypto.randomUUID();
  await e2eDb().run(
    "insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, updated_at) values (?, ?, ?, 'enrolled', 0, ?, ?)",
    enrollment,
    learner,
    course.id,
    now,
    now,
  );
  const application = crypto.randomUUID();
  await e2eDb().run(
    `insert into recognition_applications (id, enrollment_id, student_id, course_id, kind, status, statement, applied_by, applied_at, applied_on, assessor_id)
     values (?, ?, ?, ?, 'rpl', 'applied', 'Four years rigging on bridge works', ?, ?, ?, ?)`,
    application,
    enrollment,
    learner,
    course.id,
    learner,
    now,
    organisationToday(),
    assessor,
  );
  const refereeEmail = `referee-${crypto.randomUUID().slice(0, 8)}@site.example`;
  const day = addDays(organisationToday(), 30);

  // the assessor asks a referee for a report
  await signInAt(page, assessorEmail, `/trainer/recognition/${application}`);
  await page.getByLabel("Referee's name").fill("Morgan Foreman");
  await page.getByLabel("Referee's email").fill(refereeEmail);
  await page.getByLabel("Relationship or employer").fill("Site supervisor, Bridgeworks");
  await page.getByRole("button", { name: "Ask for a report" }).click();
  await expectMessage(page, js, "Report asked for");
  await expect(page.getByRole("list", { name: "Third-party reports" })).toContainText("Waiting");

  // and books a competency conversation
  const book = page.locator("form").filter({ has: page.getByRole("button", { name: "Book the session" }) });
  await book.getByLabel("Kind of session").selectOption("conversation");
  await book.getByLabel("Date").fill(day);
  await book.getByLabel("Start time").fill("10:00");
  await book.getByLabel("Duration (minutes)").fill("90");
  await book.getByLabel("Location").selectOption({ index: 1 });
  await book.getByLabel("Notes for the learner").fill("Bring your logbook");
  await page.getByRole("button", { name: "Book the session" }).click();
  await expectMessage(page, js, "Session booked and mailed to the learner");
  const sessions = page.getByRole("list", { name: "Competency sessions" });
  await expect(sessions).toContainText("Competency conversation");

  // a practical challenge overlapping it is refused beside the start time, and nothing is booked
  await book.getByLabel("Kind of session").selectOption("practical");
  await book.getByLabel("Date").fill(day);
  await book.getByLabel("Start time").fill("11:00");
  await book.getByLabel("Duration (minutes)").fill("60");
  await book.getByLabel("Location").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Book the session" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The assessor is already booked then" }).first()).toBeVisible();
  const booked = await e2eDb().all<{ id: string }>("select id from recognition_sessions where application_id = ?", application);
  expect(booked).toHaveLength(1);

  // the conversation moves to the afternoon
  await page.goto(`/trainer/recognition/${application}`);
  await page.getByText("Move this session").click();
  const move = page.locator("form").filter({ has: page.getByRole("button", { name: "Move the session" }) });
  await move.getByLabel("Start time").fill("13:00");
  await page.getByRole("button", { name: "Move the session" }).click();
  await expectMessage(page, js, "Session moved and mailed to the learner");
  await expect(sessions).toContainText("1:00");
  await signOut(page);

  // the referee opens the mailed link, signed out, and reports; the declaration is required
  const link = await mailedLink(refereeEmail, "referee-report");
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "A workplace report for Taylor Witnessed" })).toBeVisible();
  await expect(page.getByLabel("Your name")).toHaveValue("Morgan Foreman");
  await page.getByLabel("Your role").fill("Site supervisor");
  await page.getByLabel("Organisation").fill("Bridgeworks Pty Ltd");
  await page.getByLabel("Contact phone").fill("0412 555 010");
  await page.getByLabel("How you know the applicant").fill("I supervised Taylor on two bridge projects");
  await page.getByLabel("From", { exact: true }).fill("2021-03-01");
  await page.getByLabel("To", { exact: true }).fill("2024-06-30");
  await page.getByLabel("The work you saw them do").fill("Selected slings and rigged girders for tandem lifts every week");
  await page.getByRole("button", { name: "Send my report" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Tick the declaration to send the report" }).first()).toBeVisible();
  await page.getByLabel(/I declare that the information/).check();
  await page.getByRole("button", { name: "Send my report" }).click();
  await expectMessage(page, js, "Thank you: your report has been sent to the assessor.");
  await expect(page.getByRole("heading", { level: 1, name: "Thank you" })).toBeVisible();
  // the link works once; an unknown one is refused
  const again = await page.request.post(link, {
    form: {
      reporter_name: "Someone Else",
      reporter_role: "X",
      reporter_organisation: "X",
      reporter_phone: "0412 555 011",
      known_how: "X",
      worked_from: "2021-03-01",
      worked_to: "2021-04-01",
      work_witnessed: "Changed",
      declaration: "on",
    },
    maxRedirects: 0,
  });
  expect(again.status()).toBe(409);
  expect((await page.goto(`/referee-report/${"x".repeat(43)}`))?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "This report link is not valid" })).toBeVisible();

  // the assessor reads the report and cancels the session
  await signInAt(page, assessorEmail, `/trainer/recognition/${application}`);
  await expect(page.getByRole("list", { name: "Third-party reports" })).toContainText("Selected slings and rigged girders for tandem lifts every week");
  await page.getByText("Cancel this session").click();
  await page.getByLabel("Why it is cancelled").fill("The learner asked for another week");
  await page.getByRole("button", { name: "Cancel the session" }).click();
  await expectMessage(page, js, "Session cancelled and the learner told");
  await expect(sessions).toContainText("Cancelled");
  await signOut(page);

  // the learner sees the session and that the report arrived, not what it says
  await signInAt(page, learnerEmail, `/student/recognition/${application}`);
  await expect(page.getByRole("list", { name: "Competency sessions" })).toContainText("The learner asked for another week");
  await expect(page.getByRole("list", { name: "Third-party reports" })).toContainText("Received");
  await expect(page.getByText("Selected slings and rigged girders")).toHaveCount(0);
  const mails = await e2eDb().all<{ n: number }>(
    "select count(*) as n from outbox_messages where template = 'recognition-session' and recipient_id = ?",
    learner,
  );
  expect(Number(mails[0]!.n)).toBe(3);
});
