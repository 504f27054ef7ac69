import crypto from "node:crypto";
import { e2eDb, insertCourse, insertStaff, userId } from "./e2e-db";
import { DEMO, expect, expectMessage, organisationToday, signIn, signInAt, signOut, test } from "./fixtures";

/**
 * Credit transfer and RPL (CONTRACT 24, docs/decisions/037-recognition.md), with and without
 * JavaScript: an administrator sets a course's RPL fee on the course form; a learner applies for a
 * licence unit (refused beside the unit, with the reason), a credit transfer (with the other RTO's document) and an RPL;
 * the office authenticates and grants the credit transfer (the unit leaves the learner's
 * timetable) and assigns the RPL's credentialed assessor, who decides it not granted; the RPL fee
 * is invoiced; the learner reads the reasons and appeals; the AVETMISS export carries 60 and 52
 * with delivery mode NNN. The appeal is upheld: the RPL reopens with the decision kept in its
 * history, the office gives it to another credentialed assessor (Priya Shah), who cannot grant it
 * before marking every item of the unit's reviewed checklist, marks it, grants it, and the export
 * then carries 51.
 */

/** The demo's second assessor, credentialed like the demo trainer for every unit the spec's courses credit. */
const HRW_DEMO_ASSESSOR = { email: "priya.shah@example.com", full_name: "Priya Shah" };
const YEAR = Number(organisationToday().slice(0, 4));
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

/** The unit's observation checklist, reviewed by the office (as /admin/checklists does), for the RPL assessor to mark. */
async function reviewedChecklist(courseId: string): Promise<void> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const admin = await userId(DEMO.admin.email);
  await e2eDb().run(
    "insert into observation_checklists (id, course_id, title, created_by, created_at, updated_at, reviewed_at, reviewed_by) values (?, ?, ?, ?, ?, ?, ?, ?)",
    id,
    courseId,
    "WHS observation checklist",
    admin,
    now,
    now,
    now,
    admin,
  );
  for (const [position, text] of ["Identifies the hazards of the work", "Applies the controls while working"].entries())
    await e2eDb().run(
      "insert into checklist_items (id, checklist_id, position, text, maps_to) values (?, ?, ?, ?, ?)",
      crypto.randomUUID(),
      id,
      position + 1,
      text,
      `Element ${position + 1}`,
    );
}

/** A learner of the spec's own, enrolled (straight into the database) in a course without a licence class. */
async function enrol(studentId: string, courseId: string): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await e2eDb().run(
    "insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, updated_at) values (?, ?, ?, 'enrolled', 0, ?, ?)",
    id,
    studentId,
    courseId,
    now,
    now,
  );
  return id;
}

test("a learner applies for credit transfer and RPL; staff authenticate and decide; the fee, the timetable, the appeal and AVETMISS follow", async ({
  page,
  js,
}) => {
  test.setTimeout(240_000);
  const ct = await insertCourse({ name: `Prepare to work safely ${crypto.randomUUID().slice(0, 6)}` });
  const rpl = await insertCourse({ name: `Apply WHS requirements ${crypto.randomUUID().slice(0, 6)}` });
  const licence = await insertCourse({ name: `Dogging ${crypto.randomUUID().slice(0, 6)}` });
  await e2eDb().run("update courses set licence_class = 'DG' where id = ?", licence.id);
  const email = await insertStaff("student", "Riley Recognised");
  const learner = await userId(email);
  const ctEnrollment = await enrol(learner, ct.id);
  await enrol(learner, rpl.id);
  const licenceEnrollment = await enrol(learner, licence.id);
  await reviewedChecklist(rpl.id);

  // the office sets the unit's RPL fee on the course form: a bad amount is refused beside the field
  await signInAt(page, DEMO.admin.email, `/admin/courses/${rpl.id}/edit`);
  const courseForm = page.getByRole("dialog");
  await courseForm.getByLabel("RPL fee per unit (AUD)").fill("-5");
  await courseForm.getByRole("button", { name: "Save Changes" }).click();
  await expect(courseForm.getByLabel("RPL fee per unit (AUD)")).toHaveAccessibleDescription(/RPL fee cannot be negative/);
  await expect(courseForm.getByLabel("RPL fee per unit (AUD)")).toHaveAttribute("aria-invalid", "true");
  expect(await e2eDb().get("select rpl_fee_cents as fee from courses where id = ?", rpl.id)).toEqual({ fee: 0 });
  await courseForm.getByLabel("RPL fee per unit (AUD)").fill("250");
  await courseForm.getByRole("button", { name: "Save Changes" }).click();
  await expectMessage(page, js, "Course updated successfully");
  expect(await e2eDb().get("select rpl_fee_cents as fee from courses where id = ?", rpl.id)).toEqual({ fee: 25000 });
  await page.goto(`/admin/courses/${rpl.id}/edit`);
  await expect(page.getByRole("dialog").getByLabel("RPL fee per unit (AUD)")).toHaveValue("250.00");
  await page.goto("/admin/overview");
  await signOut(page);
  // the public course page tells a learner what RPL costs
  await page.goto(`/courses/${rpl.id}`);
  await expect(page.getByText("Recognition of prior learning (RPL) is assessed for $250 per unit")).toBeVisible();

  // a licence unit is refused on the form, beside the unit, with the reason; the refusal is kept on the register
  await signInAt(page, email, `/student/recognition?enrollment=${licenceEnrollment}`);
  await expect(page.getByLabel("Recognition sought")).toHaveAccessibleDescription(new RegExp(`${rpl.unit_code}: \\$250 per unit`));
  await page.getByLabel("Recognition sought").selectOption("credit_transfer");
  await page.getByLabel("What you hold or have done").fill("A dogging ticket from another RTO");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByLabel("Unit")).toHaveAccessibleDescription(/cannot be granted by credit transfer or RPL in place of the licence assessment/);
  await expect(page.getByRole("table")).toContainText("Refused");

  // the learner applies from the enrolment: credit transfer with the other RTO's statement
  await page.goto(`/student/recognition?enrollment=${ctEnrollment}`);
  await expect(page.getByLabel("Unit")).toHaveValue(ctEnrollment);
  await page.getByLabel("Recognition sought").selectOption("credit_transfer");
  await page.getByLabel("What you hold or have done").fill("Statement of attainment from RTO 90001, 2024");
  await page.getByLabel("Documents and photos").setInputFiles({ name: "statement.pdf", mimeType: "application/pdf", buffer: PDF });
  await page.getByRole("button", { name: "Apply" }).click();
  await expectMessage(page, js, "Application made");
  await expect(page.getByRole("heading", { level: 1, name: `Credit transfer: ${ct.unit_code}` })).toBeVisible();
  await expect(page.getByRole("link", { name: "statement.pdf" })).toBeVisible();

  // and RPL for the other unit: the course's RPL fee is invoiced
  await page.goto("/student/recognition");
  await page.getByLabel("Unit").selectOption({ label: `${rpl.unit_code} ${rpl.name}` });
  await page.getByLabel("Recognition sought").selectOption("rpl");
  await page.getByLabel("What you hold or have done").fill("Five years as a leading hand on civil sites");
  await page.getByRole("button", { name: "Apply" }).click();
  await expectMessage(page, js, "Application made");
  await expect(page.getByText("The RPL assessment fee is on")).toBeVisible();
  const fee = await e2eDb().get<{ total: number }>(
    "select i.total_cents as total from recognition_applications r join invoices i on i.id = r.fee_invoice_id where r.student_id = ? and r.kind = 'rpl'",
    learner,
  );
  expect(Number(fee?.total)).toBe(25000);
  await signOut(page);

  // the office authenticates the document and grants the credit transfer
  await signInAt(page, DEMO.admin.email, `/admin/recognition?q=${encodeURIComponent("Riley Recognised")}`);
  await page.getByRole("link", { name: `Credit transfer: ${ct.unit_code}, Riley Recognised` }).click();
  await page.getByRole("button", { name: "Record the decision" }).waitFor();
  await page.getByLabel("Decision").selectOption("granted");
  await page.getByLabel("Reasons").fill("Same unit, authenticated with the issuing RTO");
  await page.getByRole("button", { name: "Record the decision" }).click();
  await expectMessage(page, js, "authenticated");
  await page.getByLabel("Issuing RTO code").fill("90001");
  await page.getByLabel("Document number").fill("SOA-2024-118");
  await page.getByLabel("How it was checked").fill("Confirmed by phone with the issuing RTO's records officer");
  await page.getByLabel("Equivalence").selectOption("same");
  await page.getByRole("button", { name: "Record authentication" }).click();
  await expectMessage(page, js, "Authentication recorded");
  await page.getByLabel("Decision").selectOption("granted");
  await page.getByLabel("Reasons").fill("Same unit, authenticated with the issuing RTO");
  await page.getByRole("button", { name: "Record the decision" }).click();
  await expectMessage(page, js, "Decision recorded and mailed: granted (60)");
  const enrollment = await e2eDb().get<{ status: string; class_id: string | null }>("select status, class_id from enrollments where id = ?", ctEnrollment);
  expect(enrollment).toEqual({ status: "completed", class_id: null });

  // the RPL goes to the demo trainer, credentialed for the unit
  await page.goto(`/admin/recognition?kind=rpl&q=${encodeURIComponent("Riley Recognised")}`);
  await page.getByRole("link", { name: `Recognition of prior learning: ${rpl.unit_code}, Riley Recognised` }).click();
  await page.getByLabel("Assessor").selectOption({ label: DEMO.trainer.name });
  await page.getByRole("button", { name: "Assign assessor" }).click();
  await expectMessage(page, js, "Assessor assigned");
  await signOut(page);

  // the assessor decides it not granted, with reasons
  await signInAt(page, DEMO.trainer.email, "/trainer/recognition");
  await page.getByRole("link", { name: `Recognition of prior learning: ${rpl.unit_code}, Riley Recognised` }).click();
  // the unit's checklist and the evidence, on the assessor's evidence page
  await page.getByRole("link", { name: "Assess against the unit's checklist" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Evidence: Recognition of prior learning: ${rpl.unit_code}` })).toBeVisible();
  await page.getByRole("link", { name: "Back to the assessment" }).click();
  await page.getByLabel("Decision").selectOption("not_granted");
  await page.getByLabel("Reasons").fill("The evidence does not show the unit's risk assessment tasks");
  await page.getByRole("button", { name: "Record the decision" }).click();
  await expectMessage(page, js, "Decision recorded and mailed: not granted (52)");
  await signOut(page);

  // the learner reads the reasons and appeals; the record of results lists the credited unit
  await signInAt(page, email, "/student/recognition?status=not_granted");
  await page.getByRole("link", { name: `Recognition of prior learning: ${rpl.unit_code}` }).click();
  await expect(page.getByText("The evidence does not show the unit's risk assessment tasks")).toBeVisible();
  await page.getByRole("link", { name: "Appeal this decision" }).click();
  await page.getByLabel("Why should the decision change?").fill("My supervisor can confirm the risk assessments I wrote");
  await page.getByRole("button", { name: "Send appeal" }).click();
  await expectMessage(page, js, "Appeal received");
  await page.goto("/student/certificates");
  await expect(page.getByRole("list", { name: "Units recognised" })).toContainText(`${ct.unit_code}: Credit transfer`);
  await signOut(page);

  // AVETMISS: 60 and 52, delivery mode NNN
  await signIn(page, DEMO.admin.email);
  const nat120 = async () => {
    const nat = await page.request.get(`/admin/reports/avetmiss/NAT00120.txt?year=${YEAR}`);
    expect(nat.status()).toBe(200);
    const lines = (await nat.text()).split("\r\n");
    return (unit: string) => lines.find((l) => l.slice(30, 42).trim() === unit);
  };
  const line = await nat120();
  expect(line(ct.unit_code)?.slice(71, 73)).toBe("60");
  expect(line(ct.unit_code)).toContain("NNN");
  expect(line(rpl.unit_code)?.slice(71, 73)).toBe("52");

  // the office upholds the appeal (the demo admin did not make the decision): the RPL reopens
  const rplApp = (await e2eDb().get<{ id: string }>("select id from recognition_applications where student_id = ? and kind = 'rpl'", learner))!.id;
  const appeal = (await e2eDb().get<{ id: string; reference: string }>(
    "select id, reference from complaints where assessment_kind = 'recognition' and assessment_id = ?",
    rplApp,
  ))!;
  await page.goto(`/admin/complaints/${appeal.id}`);
  await page.getByLabel("Outcome").selectOption("upheld");
  await page.getByLabel("Reasons").fill("The supervisor's report was not weighed against the unit's risk assessment tasks");
  await page.getByRole("button", { name: "Record the decision" }).click();
  await expectMessage(page, js, "Outcome recorded and mailed");
  await expect(page.getByText("application reopened for a new decision")).toBeVisible();
  // the earlier decision stays on the application, overturned; another credentialed assessor decides again
  await page.goto(`/admin/recognition/${rplApp}`);
  const decisions = page.getByRole("list", { name: "Outcomes, oldest first" });
  await expect(decisions).toContainText(`Not granted (52) by ${DEMO.trainer.name}, overturned on appeal ${appeal.reference}`);
  await expect(page.getByLabel("Assessor").locator("option", { hasText: DEMO.trainer.name })).toHaveCount(0);
  await page.getByLabel("Assessor").selectOption({ label: HRW_DEMO_ASSESSOR.full_name });
  await page.getByRole("button", { name: "Assign assessor" }).click();
  await expectMessage(page, js, "Assessor assigned");
  await signOut(page);

  await signInAt(page, HRW_DEMO_ASSESSOR.email, `/trainer/recognition/${rplApp}`);
  await expect(page.getByText(`Appeal ${appeal.reference} was upheld`)).toBeVisible();
  // not before every item of the unit's reviewed checklist is marked on the application
  await page.getByLabel("Decision").selectOption("granted");
  await page.getByLabel("Reasons").fill("The supervisor's report and the risk assessments meet every performance criterion");
  await page.getByRole("button", { name: "Record the decision" }).click();
  await expect(page.getByText("Mark every item of the unit's checklist before granting").first()).toBeVisible();
  expect(await e2eDb().get("select status from recognition_applications where id = ?", rplApp)).toEqual({ status: "applied" });
  await page.getByRole("link", { name: "Assess against the unit's checklist" }).click();
  await expect(page.getByRole("heading", { name: "Checklist: WHS observation checklist" })).toBeVisible();
  const checklist = page.locator("form").filter({ has: page.getByRole("button", { name: "Save checklist marks" }) });
  await expect(checklist.getByRole("group")).toHaveCount(2);
  for (const item of await checklist.getByRole("group").all()) await item.getByLabel("Satisfactory", { exact: true }).check();
  await checklist.getByRole("button", { name: "Save checklist marks" }).click();
  await expectMessage(page, js, "Checklist marked");
  await page.getByRole("link", { name: "Back to the assessment" }).click();
  await page.getByLabel("Decision").selectOption("granted");
  await page.getByLabel("Reasons").fill("The supervisor's report and the risk assessments meet every performance criterion");
  await page.getByRole("button", { name: "Record the decision" }).click();
  await expectMessage(page, js, "Decision recorded and mailed: granted (51)");
  await signOut(page);

  // the learner reads both decisions; AVETMISS reports the latest, 51
  await signInAt(page, email, `/student/recognition/${rplApp}`);
  await expect(page.getByRole("list", { name: "Outcomes, oldest first" })).toContainText(`overturned on appeal ${appeal.reference}`);
  await expect(page.getByRole("list", { name: "Outcomes, oldest first" })).toContainText(`Granted (51) by ${HRW_DEMO_ASSESSOR.full_name}`);
  await signOut(page);
  await signIn(page, DEMO.admin.email);
  expect((await nat120())(rpl.unit_code)?.slice(71, 73)).toBe("51");
});
