import crypto from "node:crypto";
import { e2eDb, insertAssessment, insertCourse, insertStaff, insertTrainer, userId } from "./e2e-db";
import { DEMO, expect, expectAccessible, expectMessage, organisationToday, signIn, signInAt, test } from "./fixtures";

/**
 * The RTO's side of the Standards, with and without JavaScript: an admin builds a new trainer's
 * credentials and sees the matrix change from missing to held; plans a validation of a course,
 * draws its sample, records a finding that does not meet, and raises and closes the improvement
 * action it calls for. Each run makes its own course and trainer (the js and no-js projects
 * share one database).
 */

test.setTimeout(120_000);

const tag = () =>
  crypto
    .randomBytes(4)
    .toString("hex")
    .replace(/[0-9]/g, (d) => "qrstuvwxyz"[Number(d)]!);

test("an admin builds a trainer's credentials and the matrix changes", async ({ page, js }) => {
  const name = `Tara Newhand ${tag()}`;
  const course = await insertCourse({}, { creditTrainers: false });
  const trainerId = await insertTrainer(name);
  const cell = page.locator(`[data-cell="${name} / ${course.unit_code}"]`);

  await signIn(page, DEMO.admin.email);
  // the dashboard's Standards panel: what an auditor asks about, each with where to act
  await page.goto("/admin/overview");
  await expect(page.getByRole("heading", { name: "Standards", exact: true })).toBeVisible();
  for (const row of [
    "Trainer credentials expiring",
    "Course validations overdue",
    "Course validations due",
    "Improvement actions overdue",
    "Complaints and appeals past their clock",
  ]) {
    await expect(page.getByRole("link", { name: new RegExp(row) })).toBeVisible();
  }
  await page.goto("/admin/credentials");
  await expect(page.getByRole("heading", { level: 1, name: "Trainer credentials" })).toBeVisible();
  // the matrix shows 20 trainers a page: this one is found by name
  await page.getByLabel("Find a trainer").fill(name);
  await page.getByLabel("Find a trainer").press("Enter");
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(cell).toContainText("Missing");
  await page.getByRole("link", { name, exact: true }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: `Credentials: ${name}` })).toBeVisible();

  // no date issued: refused beside the field, nothing stored
  await page.getByRole("button", { name: "Add credential" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Date issued" })).toBeVisible();
  expect(await e2eDb().all("select id from trainer_credentials where trainer_id = ?", trainerId)).toHaveLength(0);
  await page.getByLabel("Date issued").fill("2021-03-15");
  await page.getByRole("button", { name: "Add credential" }).click();
  await expectMessage(page, js, "Credentials updated");
  await page.getByLabel("Unit code").fill(course.unit_code);
  await page.getByRole("button", { name: "Record unit" }).click();
  await expectMessage(page, js, "Credentials updated");
  await expect(page.getByText(`${name} holds a training and assessment credential today.`)).toBeVisible();
  // professional development with its certificate, kept in the evidence store
  await page.getByLabel("Kind").selectOption("development");
  await page.getByLabel("Activity date").fill(organisationToday());
  await page.getByLabel("Hours").fill("7.5");
  await page.getByLabel("What was done").fill("Assessment validation workshop");
  await page
    .getByLabel("Evidence file (optional)")
    .setInputFiles({ name: "workshop-certificate.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n") });
  await page.getByRole("button", { name: "Add activity" }).click();
  await expectMessage(page, js, "Credentials updated");
  const download = page.getByRole("link", { name: "Download workshop-certificate.pdf" });
  await expect(download).toBeVisible();
  const file = await page.request.get((await download.getAttribute("href"))!);
  expect(file.headers()["content-disposition"]).toContain("workshop-certificate.pdf");
  await expectAccessible(page);

  await page.goto(`/admin/credentials?q=${encodeURIComponent(name)}`);
  await expect(cell).toContainText("Held");
});

test("an admin plans a validation, records a finding and closes the improvement action it raises", async ({ page, js }) => {
  const t = tag();
  const course = await insertCourse({}, { creditTrainers: false });
  const validator = `Val Idator ${t}`;
  await insertTrainer(validator, [course.unit_code]);
  // a judgement by someone outside the team: the only one the sample can draw (of a learner of
  // this test's own: the demo student's figures are another spec's)
  const learner = await insertStaff("student", `Sam Pling ${t}`);
  await insertAssessment(await userId(learner), course.id, await userId(DEMO.trainer.email), `${organisationToday()}T00:00:00.000Z`);

  await signInAt(page, DEMO.admin.email, "/admin/validations");
  await page.getByLabel("Course", { exact: true }).selectOption({ label: `${course.name} (${course.unit_code})` });
  await page.getByLabel("Validation date").fill(organisationToday());
  await page.getByLabel("Sample size").fill("1");
  await page.getByLabel(validator).check();
  await page.getByRole("button", { name: "Plan validation" }).click();
  await expectMessage(page, js, "Validation planned");
  await expect(page.getByRole("heading", { level: 1, name: `Validation: ${course.name} (${course.unit_code})` })).toBeVisible();

  await page.getByRole("button", { name: "Draw the sample" }).click();
  await expectMessage(page, js, "Sample drawn");
  await page.getByLabel("Outcome for item 1").selectOption("does_not_meet");
  await page.getByRole("button", { name: "Record finding for item 1" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Describe what the validators found" })).toBeVisible();
  await page.getByRole("textbox", { name: "Finding for item 1" }).fill(`No pre-start check recorded ${t}`);
  await page.getByRole("textbox", { name: "Action for item 1" }).fill("Add the pre-start check to the observation checklist");
  await page.getByRole("button", { name: "Record finding for item 1" }).click();
  await expectMessage(page, js, "Finding recorded");
  await expect(page.getByText(`Finding: No pre-start check recorded ${t}`)).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "Raise an improvement action for item 1" }).click();
  await expect(page.getByLabel("Source", { exact: true })).toHaveValue("validation");
  await page.getByLabel("Description").fill(`Pre-start check missing from the checklist ${t}`);
  await page.getByLabel("Owner").selectOption({ label: DEMO.trainer.name });
  await page.getByRole("button", { name: "Raise action" }).click();
  await expectMessage(page, js, "Improvement action raised");
  await page.getByLabel("What was done").fill("Checklist item added and every assessor briefed.");
  await page.getByLabel("Closure evidence").fill(`Checklist v3 ${t}`);
  await page.getByRole("button", { name: "Close action" }).click();
  await expectMessage(page, js, "Improvement action closed");
  expect(
    await e2eDb().get("select status, source_type from improvement_actions where description = ?", `Pre-start check missing from the checklist ${t}`),
  ).toEqual({ status: "closed", source_type: "validation" });
});
