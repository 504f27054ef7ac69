import fs from "node:fs";
import { demoPdf } from "../../app/demo/documents.server";
import { e2eDb } from "./e2e-db";
import { DEMO, expect, expectAccessible, expectMessage, registerStudent, startSignedIn, signInAt, signOut, test } from "./fixtures";

/**
 * A learner's documents: the office uploads a learner's White Card on their Student Profile (a
 * multipart form, with and without JavaScript), a file that is not a document by its bytes is
 * refused with a message beside the field and nothing kept, the document is listed and
 * downloads as an attachment, the administrator's download is in the audit trail, and the
 * learner downloads their own from My Profile. Each run makes its own learner.
 */

test.use({ viewport: { width: 360, height: 780 } });

test("learner documents: uploaded on the Student Profile, a wrong type refused, listed and downloaded", async ({ page, js }) => {
  const learner = await registerStudent(page, "Docs Learner");
  const { id: learnerId } = (await e2eDb().get<{ id: string }>("select id from users where email = ?", learner.email))!;

  await signInAt(page, DEMO.admin.email, `/admin/students/${learnerId}`);
  const profile = page.getByRole("dialog", { name: "Student Profile" });
  await expect(profile.getByText("No files uploaded")).toBeVisible();

  // a "photo" that is text: refused by its bytes, with the reason beside the file field
  await profile.getByLabel("Description").fill("Photo ID");
  await profile.getByLabel("File", { exact: true }).setInputFiles({ name: "photo-id.jpg", mimeType: "image/jpeg", buffer: Buffer.from("this is not a photo") });
  await profile.getByRole("button", { name: "Upload document" }).click();
  const refused = "photo-id.jpg is not a JPEG, PNG, HEIC, PDF or MP4 file (judged by its contents, not its name).";
  await expect(profile.getByLabel("File", { exact: true })).toHaveAccessibleDescription(new RegExp(refused.replace(/[.()]/g, "\\$&")));
  await expect(profile.getByText("No files uploaded")).toBeVisible();
  expect(await e2eDb().all("select id from files where student_id = ?", learnerId)).toHaveLength(0);

  // the White Card, a PDF: kept, listed with its description
  await profile.getByLabel("Description").fill("General construction induction (White Card)");
  await profile.getByLabel("File", { exact: true }).setInputFiles({ name: "white-card.pdf", mimeType: "application/pdf", buffer: demoPdf("White Card") });
  await profile.getByRole("button", { name: "Upload document" }).click();
  await expectMessage(page, js, "white-card.pdf uploaded");
  const dialog = page.getByRole("dialog", { name: "Student Profile" });
  await expect(dialog.getByRole("paragraph").filter({ hasText: /^white-card\.pdf$/ })).toBeVisible();
  await expect(dialog.getByText(/General construction induction \(White Card\) · application\/pdf/)).toBeVisible();
  await expectAccessible(page);
  // the profile fits a 360 px phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // downloaded as an attachment; the administrator's download is audited
  const { id: documentId } = (await e2eDb().get<{ id: string }>("select id from files where student_id = ?", learnerId))!;
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "Download white-card.pdf" }).click()]);
  expect(download.suggestedFilename()).toBe("white-card.pdf");
  expect(
    fs
      .readFileSync((await download.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");
  await page.goto(`/admin/audit?action=learner_document.downloaded&subject=${documentId}`);
  const rows = page.getByRole("table", { name: "Audit trail entries, newest first" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Learner document downloaded by staff");
  await signOut(page);

  // the learner finds it on My Profile and downloads their own; another learner is told it does not exist
  await signInAt(page, learner.email, "/student/profile");
  const mine = page.getByRole("listitem").filter({ hasText: "General construction induction (White Card)" });
  const [ownDownload] = await Promise.all([page.waitForEvent("download"), mine.getByRole("link", { name: "Download white-card.pdf" }).click()]);
  expect(
    fs
      .readFileSync((await ownDownload.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");
  const own = await page.request.get(`/api/learner-documents/${documentId}`);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-disposition"]).toMatch(/^attachment; filename="white-card\.pdf"/);
  expect(own.headers()["x-content-type-options"]).toBe("nosniff");
  await signOut(page);
  await startSignedIn(page, DEMO.student.email);
  expect((await page.request.get(`/api/learner-documents/${documentId}`)).status()).toBe(404);
});
