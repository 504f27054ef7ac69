import crypto from "node:crypto";
import { completedEnrollmentFor, e2eDb, userId } from "./e2e-db";
import { DEMO, expect, expectAccessible, expectMessage, newClientHeaders, registerStudent, signInAt, test, uniqueUsi, NO_FORM } from "./fixtures";

/**
 * A statement of attainment needs a verified USI: the student enters it, a trainer records the
 * check with the USI Registry, the certificate is issued, and anyone can verify it by its code
 * without signing in.
 */

const db = e2eDb;

test("a student enters a USI, a trainer verifies it, the certificate is issued and verifies signed out", async ({ page, js, browser }) => {
  test.slow(); // three people's journeys in one test: two sign-ins, five pages, a second browser
  const name = `Robin Usi ${crypto.randomUUID().slice(0, 6)}`;
  const student = await registerStudent(page, name, { usiVerified: false });
  await db().run("update users set usi = null, date_of_birth = ? where email = ?", "1990-04-12", student.email);
  const { courseName, unitCode, officialTitle } = await completedEnrollmentFor(student.email);
  expect(officialTitle, "the demo's units carry their official titles").toBeTruthy();

  // The student enters a USI: a malformed one is refused beside the field, a valid one is stored upper-cased.
  await signInAt(page, student.email, "/student/profile/edit");
  await page.getByLabel("USI (Unique Student Identifier)").fill("2GF2UGXXV9");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Enter a valid USI (10 characters)").first()).toBeVisible();
  const usi = uniqueUsi();
  await page.getByLabel("USI (Unique Student Identifier)").fill(` ${usi.toLowerCase()} `);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expectMessage(page, js, "Profile updated successfully");
  await expect(page.getByText(`${usi} (not yet verified)`)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  // the sign-out's answer clears the session cookie: signing the trainer in before it arrives
  // would have that answer clear the trainer's new cookie instead (a timeout on a slow server)
  await expect(page).toHaveURL(/\/login$/);

  // The trainer sees the student under Awaiting USI, records the verification, then issues.
  await signInAt(page, DEMO.trainer.email, "/trainer/certificates");
  await expect(page.getByRole("heading", { name: /Awaiting USI/ })).toBeVisible();
  await page.getByRole("link", { name: `Verify USI of ${name}` }).click();
  await expect(page.getByText(usi)).toBeVisible();
  // the Registry matches name and date of birth: the page shows both
  await expect(page.getByRole("definition").filter({ hasText: "12 Apr 1990" })).toBeVisible();
  await page.getByRole("button", { name: "Record USI as verified" }).click();
  // the completed enrolment's certificate is issued in the same step
  await expectMessage(page, js, new RegExp(`USI of ${name} recorded as verified; certificate \\S+ issued`));
  const certificate = (await db().get<{ certificate_number: string; verification_code: string }>(
    "select c.certificate_number, c.verification_code from certificates c join users u on u.id = c.student_id where u.email = ?",
    student.email,
  ))!;
  await expect(page.getByText(`certificate ${certificate.certificate_number} issued`).first()).toBeVisible();
  await expect(
    page
      .getByRole("table", { name: /awaiting a certificate/ })
      .locator("tbody tr")
      .filter({ hasText: `${name}` })
      .filter({ hasText: courseName }),
  ).toHaveCount(0);

  // Anyone opens the QR code's URL without signing in.
  const anonymous = await browser.newContext({ javaScriptEnabled: js, extraHTTPHeaders: newClientHeaders() });
  const stranger = await anonymous.newPage();
  await stranger.goto(`/verify/${certificate.verification_code}`);
  await expect(stranger.getByRole("heading", { level: 1, name: "Certificate verification" })).toBeVisible();
  await expect(stranger.getByText("This certificate is genuine and in force.")).toBeVisible();
  await expect(stranger.getByText(certificate.certificate_number)).toBeVisible();
  await expect(stranger.getByText(name)).toBeVisible();
  // the unit by its code and official title from the national register, not the course's display name
  await expect(stranger.getByText(`${unitCode} ${officialTitle}`)).toBeVisible();
  await expect(stranger.getByText(courseName)).toHaveCount(0);
  await expect(stranger.getByText(usi)).toHaveCount(0);
  await expectAccessible(stranger);
  // the form takes the code as printed, in groups of four
  await stranger.goto("/verify");
  await stranger.getByLabel("Verification code").fill(certificate.verification_code.match(/.{4}/g)!.join("-").toLowerCase());
  await stranger.getByRole("button", { name: "Verify" }).click();
  await expect(stranger.getByText(certificate.certificate_number)).toBeVisible();
  // unknown and malformed codes get the same answer
  for (const code of ["ABCDEFGHJKLMNPQR", "nope"]) {
    const response = await stranger.goto(`/verify/${code}`);
    expect(response?.status()).toBe(404);
    await expect(stranger.getByRole("heading", { name: "No certificate found" })).toBeVisible();
  }
  const api = await stranger.request.get(`/api/verify/${certificate.verification_code}`);
  const answer = await api.json();
  expect(answer).toMatchObject({ unit_code: unitCode, unit_title: officialTitle });
  expect(Object.keys(answer).sort()).toEqual([
    "certificate_number",
    "issue_date",
    "learner_name",
    "replaced_by",
    "revoked_at",
    "rto_code",
    "rto_name",
    "status",
    "unit_code",
    "unit_title",
  ]);
  await anonymous.close();
});

test("an exemption code an administrator records counts as verified, and the certificate that waited for it is issued", async ({ page, js }) => {
  const name = `Exempt Learner ${crypto.randomUUID().slice(0, 6)}`;
  const student = await registerStudent(page, name, { usiVerified: false });
  await db().run("update users set usi = null where email = ?", student.email);
  await completedEnrollmentFor(student.email);
  await signInAt(page, DEMO.admin.email, `/admin/students/${await userId(student.email)}/edit`);
  const modal = page.getByRole("dialog", { name: "Edit Student" });
  await modal.getByLabel("USI (Unique Student Identifier)").fill("indiv");
  await modal.getByRole("button", { name: "Save Changes" }).click();
  await expectMessage(page, js, "Student updated successfully");
  const stored = await db().get<{ usi: string; usi_verified_at: string | null; certificates: number }>(
    "select usi, usi_verified_at, (select count(*) from certificates c where c.student_id = u.id) as certificates from users u where email = ?",
    student.email,
  );
  expect(stored).toMatchObject({ usi: "INDIV", usi_verified_at: expect.any(String), certificates: 1 });
});

test("the register form takes an optional USI and refuses a malformed one", NO_FORM, async ({ page }) => {
  await page.goto("/register");
  await expect(page.getByLabel("USI (Unique Student Identifier)")).toBeVisible();
  const response = await page.request.post("/register", {
    form: {
      full_name: "Bad Usi",
      email: `bad-${crypto.randomUUID().slice(0, 6)}@test.example`,
      password: "password123",
      confirm_password: "password123",
      role: "student",
      usi: "5U9HD88TA3",
    },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain("Enter a valid USI (10 characters)");
});

test("the admin overview shows certificates due, overdue first, and who awaits a USI, with a link to fix it", NO_FORM, async ({ page }) => {
  await signInAt(page, DEMO.admin.email, "/admin/overview");
  const due = page.getByRole("list", { name: /awaiting a certificate, longest waiting first/ });
  // overdue certificates lead, marked: the demo's (Noah Singh's, completed 42 days ago, waiting on his USI) among them
  await expect(due.getByRole("listitem").first()).toContainText("Overdue");
  await expect(due.getByRole("listitem").filter({ hasText: "Noah Singh" }).first()).toContainText("Overdue");
  const overdueFlags = await due.getByRole("listitem").evaluateAll((items) => items.map((li) => li.textContent!.includes("Overdue")));
  expect(
    overdueFlags.slice(overdueFlags.indexOf(false)).every((flag) => !flag),
    "no overdue certificate after one on time",
  ).toBe(true);
  // Zoe Robinson completed six days ago and waits on her USI: due, not overdue
  await expect(page.getByRole("heading", { name: /Awaiting USI \(\d+\)/ })).toBeVisible();
  const zoe = page.getByRole("listitem").filter({ hasText: "Zoe Robinson" }).filter({ hasText: "USI not verified" });
  await expect(zoe).toContainText("due");
  await expect(zoe).not.toContainText("Overdue");
  await expectAccessible(page);
  await page.getByRole("link", { name: "Verify USI of Zoe Robinson" }).click();
  await expect(page).toHaveURL(/\/admin\/students\/[0-9a-f-]{36}\/edit$/);
  await expect(page.getByRole("dialog", { name: "Edit Student" }).getByLabel(/USI/).first()).toBeVisible();
});
