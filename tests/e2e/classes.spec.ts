import crypto from "node:crypto";
import { sessionWhen } from "../../app/utils/format";
import { e2eDb, insertClass as insertClassTaughtBy, insertCourse, seatHolder, userId } from "./e2e-db";
import {
  DEMO,
  expect,
  expectAccessible,
  expectMessage,
  organisationToday,
  registerStudent,
  requestsAloneRunOnce,
  signInAt,
  signOut,
  startSignedIn,
  test,
} from "./fixtures";

/**
 * Classes (docs/decisions/013-classes.md): booking a class and finding it on the calendar feed, joining a
 * full class's waitlist, and a trainer marking a roster. Each test makes its own course and
 * class, so the demo catalogue is only read.
 */

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** A class of `courseId` on one day, seats as given, taught by the demo trainer. */
const insertClass = (courseId: string, date: string, seats: number) => insertClassTaughtBy(courseId, date, date, seats, DEMO.trainer.email);

test.describe("classes", () => {
  test("an admin adds a class; a learner books it and finds it on their calendar feed", async ({ page, js }) => {
    const course = await insertCourse();
    const start = addDays(organisationToday(), 12);
    await signInAt(page, DEMO.admin.email, `/admin/courses/${course.id}`);
    await page.getByRole("link", { name: "Add Class" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Trainer").selectOption({ label: DEMO.trainer.name });
    await dialog.getByLabel("Seats").fill("4");
    // no session typed: the summary at the top of the form takes the reader to the first row
    await dialog.getByRole("button", { name: "Add Class" }).click();
    const summary = page.locator("[data-error-summary]");
    await expect(summary).toBeFocused();
    await expect(summary).toBeInViewport();
    await expect(summary.getByRole("link", { name: "Add at least one session" })).toHaveAttribute("href", "#session_date-0");
    // one row per session, in date and time fields; "Add a session" gives another row (a post back without JavaScript)
    await dialog.getByLabel("Session 1 date").fill(start);
    await dialog.getByLabel("Session 1 starts").fill("07:30");
    await dialog.getByLabel("Session 1 ends").fill("15:30");
    await dialog.getByRole("button", { name: "Add a session" }).click();
    await expect(dialog.getByLabel("Session 2 date")).toBeFocused();
    await dialog.getByLabel("Session 2 date").fill(addDays(start, 1));
    await dialog.getByLabel("Session 2 starts").fill("07:30");
    await dialog.getByLabel("Session 2 ends").fill("12:00");
    await expect(dialog.getByLabel("Session 1 date")).toHaveValue(start);
    await expect(dialog.getByLabel("Trainer")).toHaveValue(await userId(DEMO.trainer.email));
    await dialog.getByRole("button", { name: "Add Class" }).click();
    await expectMessage(page, js, "Class added");
    const added = await e2eDb().all<{ start_date: string; end_date: string }>("select start_date, end_date from classes where course_id = ?", course.id);
    expect(added).toEqual([{ start_date: start, end_date: addDays(start, 1) }]);
    await expect(page.getByRole("dialog").getByText("0 seats taken of 4")).toBeVisible();
    await page.goto("/admin/courses");
    await signOut(page);

    const learner = await registerStudent(page, "Casey Booker");
    await signInAt(page, learner.email, `/courses?q=${encodeURIComponent(course.name)}`);
    await expect(page.getByRole("article", { name: course.name })).toContainText("4 seats left");
    await page.goto(`/enroll/${course.id}`);
    const choice = page.getByRole("group", { name: "Choose a class" });
    await expect(choice.getByRole("radio")).toHaveCount(1);
    await expect(choice.getByRole("radio").first()).toBeChecked();
    await expectAccessible(page);
    await page.getByLabel(/I agree to the terms/).check();
    await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
    await expect(page).toHaveURL(/\/student\/courses$/);
    await expect(page.getByText("2 sessions, none marked yet")).toBeVisible();
    const row = await e2eDb().get<{ planned_start_date: string; class_id: string | null }>(
      "select e.planned_start_date, e.class_id from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?",
      learner.email,
      course.id,
    );
    expect(row?.planned_start_date).toBe(start);
    expect(row?.class_id).not.toBeNull();

    await page.getByRole("link", { name: "Calendar feed" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Calendar feed" })).toBeVisible();
    await page.getByRole("button", { name: "Make my calendar address" }).click();
    const address = await page.getByLabel("Calendar address").inputValue();
    expect(address).toMatch(/\/calendar\/[A-Za-z0-9_-]{40,}\.ics$/);
    await expectAccessible(page);
    const feed = await page.request.get(new URL(address).pathname);
    expect(feed.status()).toBe(200);
    expect(feed.headers()["content-type"]).toMatch(/^text\/calendar/);
    const text = await feed.text();
    expect(text).toContain(`SUMMARY:${course.unit_code} ${course.name}`.slice(0, 60));
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(2);

    // a new address ends the old one
    await page.getByText("Make a new address").click();
    await page.getByRole("button", { name: "End the old address and make a new one" }).click();
    await expect(page.getByLabel("Calendar address")).not.toHaveValue(address);
    expect((await page.request.get(new URL(address).pathname)).status()).toBe(404);
  });

  test("a learner finds a class full and joins its waitlist", async ({ page, js }) => {
    const course = await insertCourse();
    const full = await insertClass(course.id, addDays(organisationToday(), 9), 1);
    const holder = await registerStudent(page, "Seat Holder");
    await seatHolder(course.id, full.id, holder.email);
    await insertClass(course.id, addDays(organisationToday(), 30), 3);

    const learner = await registerStudent(page, "Wren Waiting");
    await signInAt(page, learner.email, `/courses?q=${encodeURIComponent(course.name)}`);
    const card = page.getByRole("article", { name: course.name });
    await expect(card).toContainText("Full: join the waitlist");
    await expect(card).toContainText("3 seats left");
    await page.goto(`/enroll/${course.id}`);
    const radios = page.getByRole("group", { name: "Choose a class" }).getByRole("radio");
    await expect(radios.first()).toBeDisabled();
    await expect(radios.nth(1)).toBeChecked();
    await page.getByRole("button", { name: /^Join the waitlist/ }).click();
    await expectMessage(page, js, "You are on the waitlist");
    await expect(page.getByText("You are number 1 on the waitlist.")).toBeVisible();
    await expectAccessible(page);
    await page.goto("/student/courses");
    await expect(page.getByRole("region", { name: "Waitlists" })).toContainText("you are number 1 on the waitlist");
    const waiting = await e2eDb().get<{ n: number }>("select count(*) as n from class_waitlist where class_id = ? and status = 'waiting'", full.id);
    expect(waiting?.n).toBe(1);
  });

  test("a trainer marks a roster, one tap each", async ({ page, js }) => {
    const course = await insertCourse();
    const today = organisationToday();
    const cls = await insertClass(course.id, today, 4);
    const learner = await registerStudent(page, `Rory Roster ${crypto.randomUUID().slice(0, 4)}`);
    const enrollmentId = await seatHolder(course.id, cls.id, learner.email);
    const learnerName = (await e2eDb().get<{ full_name: string }>("select full_name from users where email = ?", learner.email))!.full_name;

    await signInAt(page, DEMO.trainer.email, "/trainer/classes");
    await page.getByRole("link", { name: `${course.unit_code} ${course.name}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Roster: ${course.name}` })).toBeVisible();
    const absent = page.getByRole("button", { name: `Absent: ${learnerName}, ${sessionWhen({ date: today, starts_at: "07:30", ends_at: "15:30" })}` });
    await absent.click();
    await expectMessage(page, js, "Attendance saved");
    // without JavaScript the page loads again at the row just marked
    if (!js) expect(new URL(page.url()).hash).toBe(`#mark-${cls.sessionId}-${enrollmentId}`);
    await expect(absent).toHaveAttribute("aria-pressed", "true");
    await expectAccessible(page);
    const mark = await e2eDb().get<{ status: string }>("select status from attendance where session_id = ? and enrollment_id = ?", cls.sessionId, enrollmentId);
    expect(mark?.status).toBe("absent");
    await page.getByRole("button", { name: `Late: ${learnerName}, ${sessionWhen({ date: today, starts_at: "07:30", ends_at: "15:30" })}` }).click();
    await expect(
      page.getByRole("button", { name: `Late: ${learnerName}, ${sessionWhen({ date: today, starts_at: "07:30", ends_at: "15:30" })}` }),
    ).toHaveAttribute("aria-pressed", "true");
    await expect
      .poll(
        async () =>
          (await e2eDb().get<{ status: string }>("select status from attendance where session_id = ? and enrollment_id = ?", cls.sessionId, enrollmentId))
            ?.status,
      )
      .toBe("late");
  });
});

test.describe("the enrolment form's class", () => {
  requestsAloneRunOnce();
  test("a class of another course (or one gone while the page was open) comes back at the class field, the course's form kept", async ({ page }) => {
    const [course, other] = [await insertCourse(), await insertCourse()];
    const start = addDays(organisationToday(), 12);
    await insertClass(course.id, start, 4);
    const elsewhere = await insertClass(other.id, start, 4);
    const learner = await registerStudent(page, "Casey Elsewhere");
    await startSignedIn(page, learner.email);
    for (const classId of [elsewhere.id, crypto.randomUUID()]) {
      const answer = await page.request.post(`/enroll/${course.id}`, { form: { class_id: classId, terms: "on" }, maxRedirects: 0 });
      expect(answer.status(), "the class is not found, the course is").toBe(404);
      const html = await answer.text();
      expect(html).toContain(course.name);
      // the error summary links to the class choice, which shows the message beside it
      expect(html).toMatch(/<a[^>]* href="#class_id[^"]*"[^>]*>Class not found<\/a>/);
    }
    expect(await e2eDb().get("select id from enrollments where course_id = ?", course.id)).toBeUndefined();
  });
});
