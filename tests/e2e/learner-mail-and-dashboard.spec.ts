import { e2eDb, insertClass, insertCourse } from "./e2e-db";
import { DEMO, expect, expectAccessible, organisationToday, registerStudent, signIn, signInAt, test, NO_FORM } from "./fixtures";
import { addDays } from "../../app/utils/organisation-calendar";
import { formatDate } from "../../app/utils/format";
import { WHAT_TO_BRING } from "../../app/schemas/class-text";

/**
 * What a learner meets around enrolling (issue 54, items 5-8): the policies they agree to open
 * as pages, enrolling queues the confirmation mail, the dashboard leads with the next class (or
 * says none is coming), and the roll reaches them as one notification a day under Attendance.
 */

test("a learner reads the policies, enrols, is mailed the confirmation and sees the next class on the dashboard", async ({ page, js }) => {
  const course = await insertCourse();
  const start = addDays(organisationToday(), 12);
  await insertClass(course.id, start, start, 4, DEMO.trainer.email);
  const learner = await registerStudent(page, "Robin Enrolee");
  await signIn(page, learner.email);

  await page.goto("/student/overview");
  const next = page.getByRole("region", { name: "Your next class" });
  await expect(next).toContainText("No upcoming class");

  await page.goto(`/enroll/${course.id}`);
  for (const [name, heading] of [
    ["the terms and conditions", "Terms and conditions of enrolment"],
    ["the student code of conduct", "Student code of conduct"],
    ["the privacy policy", "Privacy policy"],
  ] as const) {
    await page.getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page.getByText(/^Version in force since \d{1,2} [A-Z][a-z]{2} \d{4}$/)).toBeVisible();
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1, name: course.name })).toBeVisible();
  }

  await page.getByLabel(/I agree to the terms/).check();
  await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
  await expect(page).toHaveURL(/\/student\/courses$/);
  const mail = await e2eDb().get<{ data: string }>(
    "select m.data from outbox_messages m join users u on u.id = m.recipient_id where u.email = ? and m.template = 'enrolment-confirmed'",
    learner.email,
  );
  expect(JSON.parse(mail!.data)).toMatchObject({
    course: course.name,
    sessions: [{ date: start, starts_at: "07:30", ends_at: "15:30" }],
    fee: { kind: "invoice" },
    calendarPath: "/student/calendar",
  });

  await page.goto("/student/overview");
  await expect(next).toContainText(`${formatDate(start)}, 7:30 am – 3:30 pm`);
  await expect(next).toContainText(WHAT_TO_BRING);
  await expect(next).toContainText(course.name);
  if (js) await expectAccessible(page);
});

test("the demo learner's attendance is one notification a day, under Attendance, in Australian dates", NO_FORM, async ({ page }) => {
  await signInAt(page, DEMO.student.email, "/student/notifications");
  const subtitle = await page
    .getByText(/unread$|You are all caught up/)
    .first()
    .textContent();
  expect(Number(/(\d+) unread/.exec(subtitle ?? "")?.[1] ?? 0)).toBeLessThan(10);
  const list = page.getByRole("main");
  await expect(list.getByText(/^Attendance on \d{1,2} [A-Z][a-z]{2} \d{4}: .+\.$/).first()).toBeVisible();
  await expect(list.getByText("Attendance", { exact: true }).first()).toBeVisible();
  await expect(list).not.toContainText(/\d{4}-\d{2}-\d{2}/);
});
