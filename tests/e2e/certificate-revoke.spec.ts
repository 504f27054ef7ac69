import crypto from "node:crypto";
import { completedEnrollmentFor, e2eDb } from "./e2e-db";
import { DEMO, expect, expectAccessible, expectMessage, registerStudent, signIn, signInAt, signOut, test } from "./fixtures";

/**
 * An administrator reissues and revokes certificates from the student's profile: nothing is
 * deleted, the history says who did what and why, and public verification follows at once.
 */

const db = e2eDb;

interface Row {
  id: string;
  certificate_number: string;
  verification_code: string;
  revoked_at: string | null;
  replaced_at: string | null;
}

function certificatesOf(studentId: string): Promise<Row[]> {
  return db().all<Row>(
    "select id, certificate_number, verification_code, revoked_at, replaced_at from certificates where student_id = ? order by certificate_number",
    studentId,
  );
}

test("an admin reissues and revokes a certificate with a reason; verification shows replaced and revoked", async ({ page, js }) => {
  test.slow(); // three sign-ins and four writes, each a page load
  const name = `Riley Revoke ${crypto.randomUUID().slice(0, 6)}`;
  const student = await registerStudent(page, name);
  const { id: studentId } = (await db().get<{ id: string }>("select id from users where email = ?", student.email))!;
  const { enrollmentId } = await completedEnrollmentFor(student.email);
  await signIn(page, DEMO.trainer.email);
  expect((await page.request.post("/trainer/certificates", { form: { enrollment_id: enrollmentId }, maxRedirects: 0 })).status()).toBe(302);
  await signOut(page);
  const [original] = await certificatesOf(studentId);
  expect(original).toBeDefined();

  await signInAt(page, DEMO.admin.email, `/admin/students/${studentId}`);
  const dialog = page.getByRole("dialog", { name: "Student Profile" });
  await expect(dialog.getByText(`${original!.certificate_number} Valid`)).toBeVisible();

  // Reissue: a new number and code; the old one stays, marked replaced.
  await dialog.getByRole("button", { name: `Reissue certificate ${original!.certificate_number}` }).click();
  await expect.poll(async () => (await certificatesOf(studentId)).length).toBe(2);
  const [, replacement] = await certificatesOf(studentId);
  await expectMessage(page, js, `Certificate ${original!.certificate_number} reissued as ${replacement!.certificate_number}`);
  await expect(dialog.getByText(`${original!.certificate_number} Replaced`)).toBeVisible();
  await expect(dialog.getByText(`Replaced`).and(dialog.getByText(`by ${replacement!.certificate_number}`))).toBeVisible();
  await expect(dialog.getByText(`${replacement!.certificate_number} Valid`)).toBeVisible();
  await expect(dialog.getByText(`Replaces ${original!.certificate_number}`, { exact: false })).toBeVisible();
  expect((await certificatesOf(studentId))[0]!.replaced_at).not.toBeNull();

  // Revoke without a reason: refused beside the field, nothing changes.
  await dialog.locator("summary", { hasText: `Revoke certificate ${replacement!.certificate_number}` }).click();
  const reason = dialog.getByLabel(`Reason for revoking ${replacement!.certificate_number}`);
  await expect(reason).toBeVisible();
  await dialog.getByRole("button", { name: `Revoke certificate ${replacement!.certificate_number}` }).click();
  await expect(dialog.getByText("Reason is required").first()).toBeVisible();
  expect((await certificatesOf(studentId))[1]!.revoked_at).toBeNull();

  // With a reason: revoked, and the history shows who, when and why.
  await dialog.getByLabel(`Reason for revoking ${replacement!.certificate_number}`).fill("Issued in error: assessment evidence incomplete");
  await dialog.getByRole("button", { name: `Revoke certificate ${replacement!.certificate_number}` }).click();
  // asked first, naming whose certificate and what revoking does (a dialog with JavaScript, the page's question without)
  const question = page.getByRole(js ? "dialog" : "region", { name: `Revoke certificate ${replacement!.certificate_number}?` });
  await expect(question).toContainText(`${name}'s certificate ${replacement!.certificate_number}`);
  await expect(question).toContainText("stops being valid");
  // the reason typed is repeated to the admin, in the dialog as on the page without JavaScript
  await expect(question).toContainText("Reason, kept on the record for staff: Issued in error: assessment evidence incomplete");
  expect((await certificatesOf(studentId))[1]!.revoked_at).toBeNull();
  await expectAccessible(page);
  await question.getByRole("button", { name: "Yes, revoke it" }).click();
  await expectMessage(page, js, `Certificate ${replacement!.certificate_number} revoked`);
  await expect(dialog.getByText(`${replacement!.certificate_number} Revoked`)).toBeVisible();
  await expect(dialog.getByText(/Revoked .* by .*: Issued in error: assessment evidence incomplete/)).toBeVisible();
  await expect(dialog.getByRole("button", { name: new RegExp(`Reissue certificate`) })).toHaveCount(0);
  await expectAccessible(page);
  expect(await certificatesOf(studentId)).toHaveLength(2);

  // Revoking again, or reissuing a revoked certificate: a clear refusal and nothing changes.
  const before = await certificatesOf(studentId);
  for (const form of <Array<Record<string, string>>>[
    { intent: "revoke", certificate_id: replacement!.id, reason: "again" },
    { intent: "reissue", certificate_id: replacement!.id },
  ]) {
    const refused = await page.request.post(`/admin/students/${studentId}`, { form, maxRedirects: 0 });
    expect(refused.status()).toBe(409);
  }
  // a certificate of another student is not found through this student's profile
  const other = (await db().get<{ id: string }>("select id from certificates where student_id != ? limit 1", studentId))!;
  const elsewhere = await page.request.post(`/admin/students/${studentId}`, {
    form: { intent: "revoke", certificate_id: other.id, reason: "x" },
    maxRedirects: 0,
  });
  expect(elsewhere.status()).toBe(404);
  expect(await certificatesOf(studentId)).toEqual(before);

  // Anyone verifying: the old code says replaced (with the new number), the new one revoked.
  const old = await (await page.request.get(`/api/verify/${original!.verification_code}`)).json();
  expect(old).toMatchObject({ status: "replaced", replaced_by: replacement!.certificate_number });
  const revoked = await (await page.request.get(`/api/verify/${replacement!.verification_code}`)).json();
  expect(revoked.status).toBe("revoked");
  expect(revoked.revoked_at).toBeTruthy();
  expect(JSON.stringify(revoked)).not.toContain("Issued in error");
});
