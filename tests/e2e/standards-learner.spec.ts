import { e2eDb, insertClass, insertCourse } from "./e2e-db";
import { DEMO, expect, expectAccessible, expectMessage, organisationToday, registerStudent, signIn, signOut, test } from "./fixtures";

/**
 * The learner's side of the Standards for RTOs (docs/decisions/028-pre-enrolment-review.md): a
 * visitor takes the pre-enrolment review from a course's page, is told "suitable with support",
 * signs up and enrols (the attempt becomes theirs and confirms the enrolment), and the class's
 * trainer sees the outcome and the support needed on the roster. Phone size, with and without
 * JavaScript. Each test makes its own course and class.
 */

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

test.use({ viewport: { width: 360, height: 740 } });

test.describe("pre-enrolment review", () => {
  test("a visitor takes the review from the course page, gets suitable with support, enrols, and the trainer sees it on the roster", async ({ page, js }) => {
    // a long journey of three people on a shared machine: review, sign-up and enrolment, roster
    test.slow();
    const course = await insertCourse();
    await e2eDb().run("update courses set review_required = 1, review_retake_days = 2 where id = ?", course.id);
    const start = addDays(organisationToday(), 20);
    const cls = await insertClass(course.id, start, start, 6, DEMO.trainer.email);

    await page.goto(`/courses/${course.id}`);
    await page.getByRole("link", { name: "Take the pre-enrolment review" }).click();
    await expect(page).toHaveURL(new RegExp(`/courses/${course.id}/review$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${course.name} (${course.unit_code})`);
    await expectAccessible(page);

    // an empty review: a clear message at the top of the form, nothing kept
    await page.getByRole("button", { name: "Submit my review" }).click();
    const summary = page.locator("[data-error-summary]");
    await expect(summary).toContainText("Answer the questions before you submit the review.");
    expect((await e2eDb().get<{ n: number }>("select count(*) as n from review_attempts where course_id = ?", course.id))!.n).toBe(0);

    const choose = (n: number, answer: string) => page.getByRole("group", { name: new RegExp(`^${n}\\. `) }).getByLabel(answer, { exact: true }).check();
    await choose(1, "7.0 t");
    await choose(2, "Radius 12 m: the next radius out");
    await choose(3, "Do not stand or walk under a suspended load");
    await choose(4, "03/03/2026");
    await choose(5, "Round sling, 2 t WLL, tag RS-14: 30 mm cut in the cover near the eye. Tagged out of service.");
    // the steel plate (2 m x 1.5 m x 0.02 m x 7.85 t/m3 = 0.471 t): a slip of the decimal point
    await page.getByLabel(/^6\. /).fill("4.71");
    await page.getByLabel(/^7\. /).fill("3.5");
    await choose(8, "1.8 t");
    await choose(9, "Tap or click the link in the email");
    await choose(10, "licence-front.jpg");
    await page.getByRole("button", { name: "Submit my review" }).click();
    await expectMessage(page, js, "Your review is saved.");
    const result = page.getByRole("region", { name: "Your result: Suitable with support" });
    await expect(result).toBeVisible();
    await expect(result).toContainText("Numeracy: Your trainer will work through load calculations step by step with you");
    await expect(result).toContainText("2 of 3: Suitable with support");
    await expect(result).toContainText(`You can take the review again from`);
    await expectAccessible(page);
    const noSideways = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(noSideways, "no sideways scroll at 360 px").toBe(true);

    // signs up (the account made outside the form) and enrols: the review in this browser becomes theirs
    await expect(result.getByRole("link", { name: "Sign up and enrol" })).toHaveAttribute("href", `/register?redirectTo=%2Fenroll%2F${course.id}`);
    const learner = await registerStudent(page, "Robin Reviewed");
    await signIn(page, learner.email);
    await page.goto(`/enroll/${course.id}`);
    await expect(page.getByRole("region", { name: "Your pre-enrolment review: Suitable with support" })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel(/I agree to the terms and conditions/).check();
    await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
    await expect(page).toHaveURL(/\/student\/courses$/);
    await expectMessage(page, js, "Successfully enrolled in course!");
    const kept = await e2eDb().get<{ review_status: string; review_outcome: string; review_support: string; class_id: string; attempts: number }>(
      `select e.review_status, e.review_outcome, e.review_support, e.class_id,
              (select count(*) from review_attempts a where a.user_id = e.student_id and a.course_id = e.course_id) as attempts
         from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?`,
      learner.email,
      course.id,
    );
    expect(kept).toEqual({ review_status: "confirmed", review_outcome: "support", review_support: '["numeracy"]', class_id: cls.id, attempts: 1 });
    await signOut(page);

    await signIn(page, DEMO.trainer.email);
    await page.goto(`/trainer/classes/${cls.id}`);
    await expect(page.getByRole("heading", { name: "Pre-enrolment review" })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "Robin Reviewed" }).filter({ hasText: "Suitable with support: numeracy" })).toBeVisible();
    await expectAccessible(page);
  });

  test("enrolling before the review holds the seat; the review taken afterwards confirms the enrolment", async ({ page, js }) => {
    const course = await insertCourse();
    await e2eDb().run("update courses set review_required = 1 where id = ?", course.id);
    const learner = await registerStudent(page, "Sam Seatholder");
    await signIn(page, learner.email);
    await page.goto(`/enroll/${course.id}`);
    await expect(page.getByRole("region", { name: "Pre-enrolment review" })).toContainText("your seat is held while you take it");
    await page.getByLabel(/I agree to the terms and conditions/).check();
    await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
    await expect(page).toHaveURL(new RegExp(`/courses/${course.id}/review$`));
    await expectMessage(page, js, "Your seat is held. Take the pre-enrolment review to confirm your enrolment.");
    const state = () => e2eDb().get<{ review_status: string }>("select e.review_status from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?", learner.email, course.id);
    expect(await state()).toEqual({ review_status: "awaiting" });

    const choose = (n: number, answer: string) => page.getByRole("group", { name: new RegExp(`^${n}\\. `) }).getByLabel(answer, { exact: true }).check();
    await choose(1, "7.0 t");
    await choose(2, "Radius 12 m: the next radius out");
    await choose(3, "Do not stand or walk under a suspended load");
    await choose(4, "03/03/2026");
    await choose(5, "Round sling, 2 t WLL, tag RS-14: 30 mm cut in the cover near the eye. Tagged out of service.");
    await page.getByLabel(/^6\. /).fill("0.471");
    await page.getByLabel(/^7\. /).fill("3.5");
    await choose(8, "1.8 t");
    await choose(9, "Tap or click the link in the email");
    // one question left unanswered: its error beside it, the others kept
    await page.getByRole("button", { name: "Submit my review" }).click();
    await expect(page.locator("[data-error-summary]")).toContainText("Answer every question before you submit the review.");
    await expect(page.getByRole("group", { name: /^10\. / })).toContainText("Choose one answer");
    await expect(page.getByLabel(/^6\. /)).toHaveValue("0.471");
    await choose(10, "licence-front.jpg");
    await page.getByRole("button", { name: "Submit my review" }).click();
    await expectMessage(page, js, "Your review is saved and your enrolment is confirmed.");
    await expect(page.getByRole("region", { name: "Your result: Suitable" })).toBeVisible();
    expect(await state()).toEqual({ review_status: "confirmed" });
  });
});
