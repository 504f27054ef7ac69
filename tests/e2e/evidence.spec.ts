import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { e2eDb, insertAssessment } from "./e2e-db";
import { DEMO, expect, expectAccessible, expectMessage, organisationToday, registerStudent, signInAt, signOut, test } from "./fixtures";

/**
 * Assessment evidence on a phone, with and without JavaScript: an admin writes and reviews an
 * observation checklist, the assessor marks it, attaches two photos and signs, the candidate sees
 * the evidence and signs from their own login, an admin downloads a photo and the audit trail
 * shows that download. Each run makes its own student, assessment and checklist (the js and
 * no-js projects share one database), so rows are found by their unique names.
 */

const DOGGING = "Licence to perform dogging (DG)";

test.use({ viewport: { width: 390, height: 844 } });

function tag(): string {
  return crypto
    .randomBytes(4)
    .toString("hex")
    .replace(/[0-9]/g, (d) => "qrstuvwxyz"[Number(d)]!);
}

/** Two small, different JPEGs, written where the e2e run keeps its files. */
async function photos(name: string): Promise<string[]> {
  const dir = path.resolve("tests/.tmp/evidence-photos");
  fs.mkdirSync(dir, { recursive: true });
  return Promise.all(
    [90, 170].map(async (shade, i) => {
      const file = path.join(dir, `${name}-${i + 1}.jpg`);
      await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: shade, g: 90, b: 40 } } })
        .jpeg()
        .toFile(file);
      return file;
    }),
  );
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test("evidence: checklist marked, photos attached, both declarations signed, the learner sees it, an admin's download is audited", async ({ page, js }) => {
  const t = tag();
  const student = await registerStudent(page, `Evie Zed${t}`);
  const course = await e2eDb().get<{ id: string }>("select id from courses where name = ? and is_active = 1", DOGGING);
  const trainer = await e2eDb().get<{ id: string }>("select id from users where email = ?", DEMO.trainer.email);
  const studentRow = await e2eDb().get<{ id: string }>("select id from users where email = ?", student.email);
  const assessmentId = await insertAssessment(studentRow!.id, course!.id, trainer!.id, organisationToday());

  // The admin writes the checklist and reviews it before use.
  const title = `Dogging practical ${t}`;
  await signInAt(page, DEMO.admin.email, "/admin/checklists");
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Save checklist" }) });
  await form.getByLabel("Course").selectOption(course!.id);
  await form.getByLabel("Title").fill(title);
  await form.getByRole("button", { name: "Save checklist" }).click();
  await expect(form.getByLabel("Items")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Title")).toHaveValue(title);
  await form.getByLabel("Items").fill(`PC 1.2 | Inspects slings ${t} before the lift | practical\nPC 2.3 | Gives clear hand signals ${t} | practical`);
  await form.getByRole("button", { name: "Save checklist" }).click();
  await expectMessage(page, js, "Checklist saved; review it before use");
  const card = page.locator("section").filter({ has: page.getByRole("heading", { name: new RegExp(`^${title} \\(`) }) });
  await card.getByRole("button", { name: "Mark reviewed before use" }).click();
  await expectMessage(page, js, "Checklist reviewed before use");
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await signOut(page);

  // The assessor marks the checklist, attaches two photos and signs.
  await signInAt(page, DEMO.trainer.email, `/trainer/evidence/unit/${assessmentId}`);
  await expect(page.getByRole("heading", { name: `Checklist: ${title}` })).toBeVisible();
  const checklist = page.locator("form").filter({ has: page.getByRole("group", { name: new RegExp(`Inspects slings ${t}`) }) });
  const slings = checklist.getByRole("group", { name: new RegExp(`Inspects slings ${t}`) });
  const signals = checklist.getByRole("group", { name: new RegExp(`hand signals ${t}`) });
  await slings.getByLabel("Satisfactory", { exact: true }).check();
  await checklist.getByRole("button", { name: "Save checklist marks" }).click();
  // an item left unmarked is named beside it and nothing is stored
  await expect(signals.getByText("Mark every item satisfactory or not yet.")).toBeVisible();
  expect(await e2eDb().get("select count(*) as n from checklist_marks where assessment_id = ?", assessmentId)).toEqual({ n: 0 });
  await slings.getByLabel("Satisfactory", { exact: true }).check();
  await signals.getByLabel("Not yet satisfactory").check();
  await signals.getByLabel("Comment").fill("Signals late on the second lift");
  await checklist.getByRole("button", { name: "Save checklist marks" }).click();
  await expectMessage(page, js, "Checklist marked");
  await expect(signals.getByLabel("Not yet satisfactory")).toBeChecked();

  const files = await photos(`${js ? "js" : "nojs"}-${t}`);
  const field = page.getByLabel("Photos and documents");
  // no `capture`: a phone offers the camera, its photo library and its files alike
  await expect(field, "the evidence field does not force the camera").not.toHaveAttribute("capture");
  await expect(field).toHaveAttribute("accept", /pdf/);
  await expect(field).toHaveAttribute("accept", /mp4/);
  await field.setInputFiles(files);
  await page.getByRole("button", { name: "Upload evidence" }).click();
  await expectMessage(page, js, "Evidence added: 2 files");
  const list = page.getByRole("list", { name: "Evidence files" });
  await expect(list.getByRole("listitem")).toHaveCount(2);

  await page.getByLabel("Assessor's full name").fill("Sam Whitfield");
  await page.getByRole("button", { name: "Sign as assessor" }).click();
  await expectMessage(page, js, "Declaration signed");
  await expect(page.getByText(/Assessor:\s*signed by Sam Whitfield/)).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await signOut(page);

  // The candidate sees the evidence and signs from their own login.
  await signInAt(page, student.email, "/student/evidence");
  const mine = page.getByRole("list", { name: "Evidence for Practical" });
  await expect(mine.getByRole("link")).toHaveCount(2);
  await page.getByRole("button", { name: "Sign my declaration" }).click();
  await expect(page.getByLabel("Your full name")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Your full name").fill(student.name);
  await page.getByRole("button", { name: "Sign my declaration" }).click();
  await expectMessage(page, js, "Declaration signed");
  await expect(page.getByText(`Candidate signed as ${student.name}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign my declaration" })).toHaveCount(0);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await signOut(page);

  // An admin downloads a photo; the audit trail shows who did.
  await signInAt(page, DEMO.admin.email, `/admin/students/${studentRow!.id}`);
  await page.getByRole("link", { name: /^Evidence and declarations for Licence to perform dogging \(DG\), Practical/ }).click();
  await expect(page).toHaveURL(`/admin/evidence/unit/${assessmentId}`);
  await expect(page.getByText(/Candidate:\s*signed by/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload evidence" }), "admins read evidence; only its assessor adds to it").toHaveCount(0);
  const link = page.getByRole("list", { name: "Evidence files" }).getByRole("link").first();
  const href = await link.getAttribute("href");
  const fileId = href!.split("/")[2]!;
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const saved = fs.readFileSync((await download.path())!);
  expect(saved.subarray(0, 3).toString("hex"), "a JPEG comes back").toBe("ffd8ff");
  await page.goto(`/admin/audit?action=evidence.downloaded&subject=${fileId}`);
  const rows = page.getByRole("table", { name: "Audit trail entries, newest first" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Assessment evidence downloaded by staff");
  await expect(rows.first()).toContainText(DEMO.admin.email);
  await expectNoSidewaysScroll(page);
});
