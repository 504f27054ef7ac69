import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { e2eDb, insertAssessment, insertClass, insertCourse, insertStaff, userId } from "./e2e-db";
import { DEMO, expect, expectAccessible, expectMessage, organisationToday, registerStudent, signInAt, signOut, test } from "./fixtures";

/**
 * The learner's side of the Standards for RTOs (docs/decisions/028-pre-enrolment-review.md): a
 * visitor takes the pre-enrolment review from a course's page, is told "suitable with support",
 * signs up and enrols (the attempt becomes theirs and confirms the enrolment), and the class's
 * trainer sees the outcome and the support needed on the roster. Complaints and appeals
 * (docs/decisions/029-complaints-and-appeals.md): a visitor's anonymous complaint acknowledged and
 * resolved by an administrator; a learner's appeal of a result upheld by a trainer other than the
 * assessor. Phone size, with and without JavaScript. Each test makes its own records.
 */

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

test.use({ viewport: { width: 360, height: 740 } });

/**
 * The review asks every active question of the bank, so the bank's test (a question added,
 * reworded, retired) would renumber the questions of a review taken in those seconds, in this
 * project or the other one on the same server. The journeys that answer a review and the bank's
 * test each hold the server's bank while they run: a lock directory beside the server's
 * database, made by one worker at a time. A lock older than the longest of these tests is a
 * killed worker's, and is taken over; the server removes any at its start (tests/e2e/server.mjs).
 */
const bankTest = test.extend<{ questionBank: void }>({
  questionBank: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern; it needs none
    async ({}, use, testInfo) => {
      const lock = path.resolve(`tests/.tmp/question-bank-${testInfo.project.metadata.port}.lock`);
      for (;;) {
        try {
          fs.mkdirSync(lock);
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
          const held = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
          if (held > 200_000) fs.rmSync(lock, { recursive: true, force: true });
          else await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
      try {
        await use();
      } finally {
        fs.rmSync(lock, { recursive: true, force: true });
      }
    },
    { auto: true },
  ],
});

/** Ticks an answer of the review's question numbered `n`. */
const chooseAnswer = (page: Page, n: number, answer: string) =>
  page
    .getByRole("group", { name: new RegExp(`^${n}\\. `) })
    .getByLabel(answer, { exact: true })
    .check();

/**
 * Answers the demo bank's ten questions by their numbers: each right but the steel plate's
 * weight (question 6), typed as given, and question 10 only when `last` is set.
 */
async function answerTheReview(page: Page, { plate, last }: { plate: string; last: boolean }) {
  await chooseAnswer(page, 1, "7.0 t");
  await chooseAnswer(page, 2, "Radius 12 m: the next radius out");
  await chooseAnswer(page, 3, "Do not stand or walk under a suspended load");
  await chooseAnswer(page, 4, "03/03/2026");
  await chooseAnswer(page, 5, "Round sling, 2 t WLL, tag RS-14: 30 mm cut in the cover near the eye. Tagged out of service.");
  await page.getByLabel(/^6\. /).fill(plate);
  await page.getByLabel(/^7\. /).fill("3.5");
  await chooseAnswer(page, 8, "1.8 t");
  await chooseAnswer(page, 9, "Tap or click the link in the email");
  if (last) await chooseAnswer(page, 10, "licence-front.jpg");
}

async function expectNoSidewaysScroll(page: Page) {
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(fits, "no sideways scroll at 360 px").toBe(true);
}

test.describe("pre-enrolment review", () => {
  bankTest(
    "a visitor takes the review from the course page, gets suitable with support, enrols, and the trainer sees it on the roster",
    async ({ page, js }) => {
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

      // an empty review: a clear message at the top of the form, nothing kept
      await page.getByRole("button", { name: "Submit my review" }).click();
      const summary = page.locator("[data-error-summary]");
      await expect(summary).toContainText("Answer the questions before you submit the review.");
      expect((await e2eDb().get<{ n: number }>("select count(*) as n from review_attempts where course_id = ?", course.id))!.n).toBe(0);

      // the steel plate (2 m x 1.5 m x 0.02 m x 7.85 t/m3 = 0.471 t): a slip of the decimal point
      await answerTheReview(page, { plate: "4.71", last: true });
      await page.getByRole("button", { name: "Submit my review" }).click();
      await expectMessage(page, js, "Your review is saved.");
      const result = page.getByRole("region", { name: "Your result: Suitable with support" });
      await expect(result).toBeVisible();
      await expect(result).toContainText("Numeracy: Your trainer will work through load calculations step by step with you");
      await expect(result).toContainText("2 of 3: Suitable with support");
      await expect(result).toContainText(`You can take the review again from`);
      await expectAccessible(page);
      await expectNoSidewaysScroll(page);

      // signs up (the account made outside the form) and enrols: the review in this browser becomes theirs
      await expect(result.getByRole("link", { name: "Sign up and enrol" })).toHaveAttribute("href", `/register?redirectTo=%2Fenroll%2F${course.id}`);
      const learner = await registerStudent(page, "Robin Reviewed");
      await signInAt(page, learner.email, `/enroll/${course.id}`);
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

      await signInAt(page, DEMO.trainer.email, `/trainer/classes/${cls.id}`);
      await expect(page.getByRole("heading", { name: "Pre-enrolment review" })).toBeVisible();
      await expect(page.getByRole("listitem").filter({ hasText: "Robin Reviewed" }).filter({ hasText: "Suitable with support: numeracy" })).toBeVisible();
      await expectAccessible(page);
    },
  );

  bankTest("enrolling before the review holds the seat; the review taken afterwards confirms the enrolment", async ({ page, js }) => {
    const course = await insertCourse();
    await e2eDb().run("update courses set review_required = 1 where id = ?", course.id);
    const learner = await registerStudent(page, "Sam Seatholder");
    await signInAt(page, learner.email, `/enroll/${course.id}`);
    await expect(page.getByRole("region", { name: "Pre-enrolment review" })).toContainText("your seat is held while you take it");
    await page.getByLabel(/I agree to the terms and conditions/).check();
    await page.getByRole("button", { name: "Enrol Now (Mock Payment)" }).click();
    await expect(page).toHaveURL(new RegExp(`/courses/${course.id}/review$`));
    await expectMessage(page, js, "Your seat is held. Take the pre-enrolment review to confirm your enrolment.");
    const state = () =>
      e2eDb().get<{ review_status: string }>(
        "select e.review_status from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?",
        learner.email,
        course.id,
      );
    expect(await state()).toEqual({ review_status: "awaiting" });

    await answerTheReview(page, { plate: "0.471", last: false });
    // one question left unanswered: its error beside it, the others kept
    await page.getByRole("button", { name: "Submit my review" }).click();
    await expect(page.locator("[data-error-summary]")).toContainText("Answer every question before you submit the review.");
    await expect(page.getByRole("group", { name: /^10\. / })).toContainText("Choose one answer");
    await expect(page.getByLabel(/^6\. /)).toHaveValue("0.471");
    await chooseAnswer(page, 10, "licence-front.jpg");
    await page.getByRole("button", { name: "Submit my review" }).click();
    await expectMessage(page, js, "Your review is saved and your enrolment is confirmed.");
    await expect(page.getByRole("region", { name: "Your result: Suitable" })).toBeVisible();
    expect(await state()).toEqual({ review_status: "confirmed" });
  });
});

test.describe("complaints and appeals", () => {
  test("a visitor lodges an anonymous complaint; an administrator acknowledges and resolves it", async ({ page, js }) => {
    // the section's bare address leads to its policy (it was an empty page)
    await page.goto("/complaints");
    await expect(page).toHaveURL(/\/complaints\/policy$/);
    await page.getByRole("link", { name: "Make a complaint" }).first().click();
    await expect(page).toHaveURL(/\/complaints\/new$/);
    const details = `The yard gate was locked at 7 am on our first day (${crypto.randomUUID().slice(0, 8)})`;
    await page.getByLabel("Your complaint").fill(details);
    await page.getByRole("button", { name: "Send complaint" }).click();
    await expectMessage(page, js, /Complaint received: your reference is C-\d{4}-\d{4}/);
    const lodged = page.getByRole("heading", { name: /^Your reference is C-\d{4}-\d{4}$/ });
    await expect(lodged).toBeVisible();
    await expect(page.getByText("You left no email address, so keep this reference to ask about it.")).toBeVisible();
    const reference = (await lodged.textContent())!.replace("Your reference is ", "");
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    expect(await e2eDb().get("select name, email, lodged_by, status from complaints where reference = ?", reference)).toEqual({
      name: null,
      email: null,
      lodged_by: null,
      status: "received",
    });

    await signInAt(page, DEMO.admin.email, "/admin/complaints?kind=complaint&status=open");
    await expectNoSidewaysScroll(page);
    await page.getByRole("link", { name: reference, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Complaint ${reference}`);
    await expect(page.getByText(details)).toBeVisible();
    await page.getByRole("button", { name: "Mark acknowledged" }).click();
    await expectMessage(page, js, "Acknowledged");
    await page.getByLabel("Outcome").selectOption("upheld");
    await page.getByLabel("Reasons").fill("The gate now opens at 6:45 am, and the office phone diverts to the yard");
    await page.getByRole("button", { name: "Record the outcome" }).click();
    await expectMessage(page, js, "Outcome recorded and mailed");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText("Upheld", { exact: true })).toBeVisible();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    expect(
      await e2eDb().get("select status, outcome, acknowledged_at is not null as acknowledged from complaints where reference = ?", reference),
    ).toMatchObject({ status: "resolved", outcome: "upheld" });
  });

  test("a learner appeals a result from their results; another trainer upholds it and the result changes", async ({ page, js }) => {
    const course = await insertCourse();
    const learner = await registerStudent(page, "Alex Appellant");
    const assessment = await insertAssessment(
      await userId(learner.email),
      course.id,
      await userId(DEMO.trainer.email),
      `${organisationToday()}T00:00:00.000Z`,
      "failed",
    );
    const decider = await insertStaff("trainer", "Pat Decider");

    await signInAt(page, learner.email, "/student/appeals");
    await page.getByRole("link", { name: "Appeal this decision: Practical" }).click();
    await page.getByLabel("Why should the decision change?").fill("I lifted within the chart; the radius was read as 14 m, not 12 m");
    await page.getByRole("button", { name: "Send appeal" }).click();
    await expect(page).toHaveURL(/\/student\/appeals$/);
    await expectMessage(page, js, /Appeal received: your reference is A-\d{4}-\d{4}/);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    const appeal = (await e2eDb().get<{ id: string; reference: string }>("select id, reference from complaints where assessment_id = ?", assessment))!;
    await signOut(page);
    // an administrator's assignment (its own step on the item's page) made outside the screens
    await e2eDb().run("update complaints set decider_id = ? where id = ?", await userId(decider), appeal.id);

    await signInAt(page, decider, "/trainer/appeals");
    await page.getByRole("link", { name: appeal.reference, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Appeal ${appeal.reference}`);
    await page.getByLabel("Outcome").selectOption("upheld");
    await page.getByLabel("Reasons").fill("The load chart at 12 m allows the lift; the result is changed to passed");
    await page.getByLabel("Change the result to").selectOption("passed");
    await page.getByRole("button", { name: "Record the decision" }).click();
    await expectMessage(page, js, "Outcome recorded and mailed");
    await expect(page.getByText("Result changed to")).toBeVisible();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    expect(await e2eDb().get("select status from assessments where id = ?", assessment)).toEqual({ status: "passed" });
    expect(await e2eDb().get("select status, outcome, resolved_by from complaints where id = ?", appeal.id)).toEqual({
      status: "resolved",
      outcome: "upheld",
      resolved_by: await userId(decider),
    });
  });
});

test.describe("the review's question bank", () => {
  bankTest("an administrator adds a numeracy question, changes its wording and retires it, leaving the bank as it was", async ({ page, js }) => {
    const asked = async () => (await e2eDb().get<{ n: number }>("select count(*) as n from review_questions where is_active = 1"))!.n;
    const before = await asked();
    const tag = crypto.randomUUID().slice(0, 8);
    await signInAt(page, DEMO.admin.email, "/admin/review-questions");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pre-enrolment review questions");
    const add = page.getByRole("form", { name: "Add a question" });
    await add.getByLabel("Group").selectOption("numeracy");
    await add.getByLabel("Kind").selectOption("numeric");
    await add.getByLabel("Question", { exact: true }).fill(`A sling lifts 2 loads of 0.6 t (${tag}). Total in t?`);
    // a wrong answer first: its message beside the field, nothing added
    await add.getByLabel("Right answer").fill("lots");
    await add.getByRole("button", { name: "Add question" }).click();
    await expect(add.getByText("The right answer is a number, e.g. 0.471").first()).toBeVisible();
    expect(await asked()).toBe(before);
    await add.getByLabel("Right answer").fill("1.2");
    await add.getByRole("button", { name: "Add question" }).click();
    await expectMessage(page, js, "Question added");
    const item = page.getByRole("listitem").filter({ hasText: tag });
    await expect(item).toContainText("Right answer: 1.2");
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);

    await item.getByText(/^Change question Numeracy \d+$/).click();
    await item.getByLabel("Question", { exact: true }).fill(`A sling lifts 3 loads of 0.6 t (${tag}). Total in t?`);
    await item.getByLabel("Right answer").fill("1.8");
    await item.getByRole("button", { name: "Save the new wording" }).click();
    await expectMessage(page, js, "Question changed: the old wording is retired, past answers keep it");
    const changed = page
      .getByRole("listitem")
      .filter({ hasText: `3 loads of 0.6 t (${tag})` })
      .filter({ hasText: "Right answer: 1.8" });
    await expect(changed).toBeVisible();
    await changed.getByRole("button", { name: /^Retire question Numeracy \d+$/ }).click();
    await expectMessage(page, js, "Question retired: past answers keep it");
    await expect(page.getByText(`3 loads of 0.6 t (${tag})`)).toBeHidden();
    expect(await asked()).toBe(before);
    expect((await e2eDb().get<{ n: number }>("select count(*) as n from review_questions where prompt like ? and is_active = 0", `%${tag}%`))!.n).toBe(2);
  });
});
