import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { e2eDb } from "./e2e-db";
import { DEMO, expect, expectMessage, registerStudent, signIn, startSignedIn, signInAt, test, NO_FORM } from "./fixtures";

/**
 * Certificate PDFs over HTTP against the production build: the demo student downloads each
 * certificate (by the portal's Download PDF link, with and without JavaScript, and by the
 * /api route), trainers and admins may too, another student and anonymous callers may not.
 */

interface DemoCertificate {
  id: string;
  certificate_number: string;
  course_name: string;
  unit_code: string;
  official_title: string | null;
}

/** The demo student's certificates, read from the e2e server's database. */
function demoCertificates(): Promise<DemoCertificate[]> {
  return e2eDb().all<DemoCertificate>(
    `select c.id, c.certificate_number, co.name as course_name, co.unit_code, co.official_title
       from certificates c join users u on u.id = c.student_id join courses co on co.id = c.course_id
      where u.email = ? order by c.certificate_number`,
    DEMO.student.email,
  );
}

function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-cert-"));
  try {
    const file = path.join(dir, "c.pdf");
    fs.writeFileSync(file, bytes);
    return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const downloadUrl = (id: string) => `/api/certificates/${id}/download`;
/** The pages' link: the same file, saved under a name for a person. */
const pageDownloadUrl = (id: string) => `/certificates/${id}/download`;

test.describe("certificate downloads", () => {
  // the first download of each certificate renders it in Chromium
  test.slow();

  test("the demo student downloads each of their certificates as the right PDF", NO_FORM, async ({ page }) => {
    const certificates = await demoCertificates();
    expect(certificates.length).toBeGreaterThanOrEqual(3);
    await signIn(page, DEMO.student.email);
    for (const c of certificates) {
      const response = await page.request.get(downloadUrl(c.id));
      expect(response.status()).toBe(200);
      const headers = response.headers();
      expect(headers["content-type"]).toBe("application/pdf");
      // the /api contract's name, exactly
      expect(headers["content-disposition"]).toBe(`attachment; filename="certificate_${c.id}.pdf"`);
      expect(headers["cache-control"]).toBe("private, max-age=0, must-revalidate");
      expect(headers["x-content-type-options"]).toBe("nosniff");
      const body = await response.body();
      expect(headers["content-length"]).toBe(String(body.length));
      expect(body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      const text = pdfText(body);
      expect(text).toContain(DEMO.student.name);
      expect(text).toContain(c.certificate_number);
      // the unit by its code and official title from the national register, not the course's display name
      expect(c.official_title).toBeTruthy();
      expect(text).toContain(c.unit_code);
      expect(text).toContain(c.official_title!);
      if (c.course_name !== c.official_title) expect(text).not.toContain(c.course_name);

      const repeat = await page.request.get(downloadUrl(c.id), { headers: { "If-None-Match": headers.etag! } });
      expect(repeat.status()).toBe(304);
    }
  });

  test("the Download PDF link on My Certificates saves the file, with or without JavaScript", async ({ page, js }) => {
    const [first] = await demoCertificates();
    await signInAt(page, DEMO.student.email, "/student/certificates");
    const link = page.locator(`a[href="${pageDownloadUrl(first!.id)}"]`);
    const saved = page.waitForEvent("download");
    await link.click();
    const download = await saved;
    expect(download.suggestedFilename()).toBe(`SoA-${first!.certificate_number}-${DEMO.student.name.replace(/ /g, "-")}.pdf`);
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdfText(bytes)).toContain(first!.certificate_number);
    if (js) await expectMessage(page, js, "Certificate downloaded successfully");
  });

  test("a plain navigation to the route saves the attachment (how a link works without JavaScript)", NO_FORM, async ({ page }) => {
    const [, second] = await demoCertificates();
    await signIn(page, DEMO.student.email);
    const saved = page.waitForEvent("download");
    await page.goto(downloadUrl(second!.id)).catch(() => {}); // navigation ends in a download
    const download = await saved;
    expect(download.suggestedFilename()).toBe(`certificate_${second!.id}.pdf`);
    expect(
      fs
        .readFileSync((await download.path())!)
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
  });

  for (const role of ["trainer", "admin"] as const) {
    test(`the demo ${role} may download the student's certificate`, NO_FORM, async ({ page }) => {
      const [first] = await demoCertificates();
      await startSignedIn(page, DEMO[role].email);
      const response = await page.request.get(downloadUrl(first!.id));
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toBe("application/pdf");
      expect(pdfText(await response.body())).toContain(DEMO.student.name);
    });
  }

  test("another student gets 404, as for an unknown or malformed id", NO_FORM, async ({ page }) => {
    const [first] = await demoCertificates();
    const other = await registerStudent(page, "Other Student");
    await signIn(page, other.email);
    for (const url of [downloadUrl(first!.id), downloadUrl(crypto.randomUUID()), downloadUrl("not-an-id")]) {
      const response = await page.request.get(url);
      expect(response.status(), url).toBe(404);
      expect(await response.json()).toEqual({ detail: "Certificate not found" });
    }
  });

  test("without signing in the route answers 401", NO_FORM, async ({ page }) => {
    const [first] = await demoCertificates();
    const response = await page.request.get(downloadUrl(first!.id));
    expect(response.status()).toBe(401);
    expect(response.headers()["content-type"]).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ detail: "Not authenticated" });
  });
});
