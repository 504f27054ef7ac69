import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, TEST_DIALECT } from "../../tests/support/test-db";
import { browserStats, closeBrowser, currentBrowserForTests, htmlToPdf, MAX_CONCURRENT_RENDERS, RenderError } from "./browser.server";
import { documentOrigin } from "~/utils/public-link.server";
import { certificateRenderCount, documentData, ensureCertificatePdf, prepareCertificatePdf } from "./certificate-pdf.server";
import { ATTAINMENT_STATEMENT, NRT_STATEMENT, TEMPLATE_VERSION, renderCertificateHtml } from "./certificate-template.server";
import { getCertificateDocumentRecord } from "~/models/certificates/certificate-document.server";
import { reissueCertificate, revokeCertificate } from "~/models/certificates/certificate-issue.server";
import { makeUser } from "../../tests/support/factories";
import { makeCertifiedStudent, pdfFonts, pdfInfo, pdfText } from "../../tests/support/pdf-fixtures";

/** Real rendering: puppeteer driving Debian's Chromium, read back with poppler-utils. */

const SLOW = 120_000;
let db: DB;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(async () => {
  await closeBrowser();
  await cleanup();
});

async function storedVersion(certificateId: string) {
  return db.selectFrom("certificate_documents").select(["template_version", "byte_length"]).where("certificate_id", "=", certificateId).executeTakeFirst();
}

describe("ensureCertificatePdf", () => {
  // a course recorded before its official title was kept: its display name stands in for it
  it("prints a statement of attainment with its sentence, unit and verification URL, never the USI or date of birth", async () => {
    const { student, certificate } = await makeCertifiedStudent(db, {
      fullName: "Casey Verified",
      unitCode: "CPCCLRG3001",
      courseName: "Licence to perform rigging basic level (RB)",
    });
    await db.updateTable("users").set({ date_of_birth: "1991-07-23" }).where("id", "=", student.id).execute();
    const { usi } = await db.selectFrom("users").select("usi").where("id", "=", student.id).executeTakeFirstOrThrow();
    expect(usi).toMatch(/^[2-9A-Z]{10}$/);
    const origin = documentOrigin();
    expect(origin).toBe(`http://localhost:${process.env.PORT ?? 3000}`);
    const result = await ensureCertificatePdf(db, certificate.id);
    const text = await pdfText(result!.pdf);
    for (const expected of [
      ATTAINMENT_STATEMENT,
      "CPCCLRG3001",
      "Licence to perform rigging basic level (RB)",
      `${origin}/verify/${certificate.code}`,
      certificate.number,
      "Casey Verified",
    ]) {
      expect(text).toContain(expected);
    }
    for (const secret of [usi!, "1991", "23 July", "23/07"]) expect(text).not.toContain(secret);
    // the printed origin is the configured one, never a request's: only a new APP_URL re-renders
    expect(result!.rendered).toBe(true);
    expect((await ensureCertificatePdf(db, certificate.id))!.rendered).toBe(false);
    process.env.APP_URL = "https://portal.example.com";
    try {
      const moved = await ensureCertificatePdf(db, certificate.id);
      expect(moved!.rendered).toBe(true);
      expect(await pdfText(moved!.pdf)).toContain(`https://portal.example.com/verify/${certificate.code}`);
    } finally {
      delete process.env.APP_URL;
    }
  }, 60_000);

  it(
    "renders a one-page A4 landscape PDF with the certificate's text, title and author",
    async () => {
      const { student, certificate } = await makeCertifiedStudent(db, {
        fullName: "Jordan Mitchell",
        courseName: "Licence to operate a non-slewing mobile crane (greater than 3 tonnes) (CN)",
        officialTitle: "Licence to operate a non-slewing mobile crane (greater than 3 tonnes capacity)",
        unitCode: "TLILIC0040",
        tier: "tier_2",
        issueDate: "2026-03-14T01:00:00.000Z",
      });
      const result = await ensureCertificatePdf(db, certificate.id);
      expect(result).not.toBeNull();
      const pdf = result!.pdf;
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(pdf.subarray(-6).toString("latin1")).toContain("%%EOF");
      expect(result!.rendered).toBe(true);
      expect(result!.byteLength).toBe(pdf.length);

      const text = await pdfText(pdf);
      for (const expected of [
        "Jordan Mitchell",
        certificate.number,
        // the unit's official title, not the course's display name
        "Licence to operate a non-slewing mobile crane (greater than 3 tonnes capacity)",
        "TLILIC0040",
        "Statement of Attainment",
        "Tier 2",
        "14 Mar 2026",
        "Summit Crane & Rigging Training",
        "RTO Code 45678",
        "Authorised signatory",
        NRT_STATEMENT,
      ]) {
        expect(text).toContain(expected);
      }
      expect(text).not.toContain("(CN)");
      expect(text).not.toContain(student.id);
      expect(text).not.toContain(student.id.slice(-8));
      expect(text).not.toContain(student.email);
      expect(text).not.toContain(certificate.id);

      const { fields, warnings } = await pdfInfo(pdf);
      expect(warnings).toBe("");
      expect(fields.Title).toBe(`Certificate ${certificate.number} — Licence to operate a non-slewing mobile crane (greater than 3 tonnes capacity)`);
      expect(fields.Author).toBe("Summit Crane & Rigging Training");
      expect(fields.Pages).toBe("1");
      const [width, height] = /([\d.]+) x ([\d.]+) pts/.exec(fields["Page size"]!)!.slice(1).map(Number) as [number, number];
      expect(Math.abs(width - 841.89)).toBeLessThan(2); // 297 mm
      expect(Math.abs(height - 595.28)).toBeLessThan(2); // 210 mm

      // the project's own typefaces, embedded: nothing depends on fonts of the reader's machine
      const fonts = await pdfFonts(pdf);
      expect(fonts.length).toBeGreaterThan(0);
      for (const font of fonts) {
        expect(font.name).toMatch(/^(LibreBaskerville|Inter)-/);
        expect(font.embedded).toBe(true);
      }

      const stored = await storedVersion(certificate.id);
      expect(stored?.template_version.startsWith(`${TEMPLATE_VERSION}+`)).toBe(true);
      expect(stored?.byte_length).toBe(pdf.length);
    },
    SLOW,
  );

  it(
    "serves the stored bytes the second time without rendering again",
    async () => {
      const { certificate } = await makeCertifiedStudent(db);
      const first = await ensureCertificatePdf(db, certificate.id);
      const renders = certificateRenderCount();
      const second = await ensureCertificatePdf(db, certificate.id);
      const third = await ensureCertificatePdf(db, certificate.id);
      expect(certificateRenderCount()).toBe(renders);
      expect(second!.rendered).toBe(false);
      expect(second!.pdf.equals(first!.pdf)).toBe(true);
      expect(third!.etag).toBe(first!.etag);
    },
    SLOW,
  );

  it(
    "renders once for concurrent first downloads of the same certificate",
    async () => {
      const { certificate } = await makeCertifiedStudent(db);
      const renders = certificateRenderCount();
      const results = await Promise.all(Array.from({ length: 5 }, () => ensureCertificatePdf(db, certificate.id)));
      expect(certificateRenderCount()).toBe(renders + 1);
      expect(new Set(results.map((r) => r!.etag)).size).toBe(1);
    },
    SLOW,
  );

  it(
    "renders again when the stored document was made by another template version",
    async () => {
      const { certificate } = await makeCertifiedStudent(db);
      const first = await ensureCertificatePdf(db, certificate.id);
      const current = (await storedVersion(certificate.id))!.template_version;
      await db.updateTable("certificate_documents").set({ template_version: "certificate-1999-01-01.1+old" }).execute();
      const renders = certificateRenderCount();
      const again = await ensureCertificatePdf(db, certificate.id);
      expect(certificateRenderCount()).toBe(renders + 1);
      expect(again!.rendered).toBe(true);
      expect(again!.etag).not.toBe(first!.etag);
      expect((await storedVersion(certificate.id))!.template_version).toBe(current);
      expect((await ensureCertificatePdf(db, certificate.id))!.rendered).toBe(false);
    },
    SLOW,
  );

  it(
    "renders again when a printed value changes, such as a corrected learner name",
    async () => {
      const { student, certificate } = await makeCertifiedStudent(db, { fullName: "Jordon Mitchel" });
      await ensureCertificatePdf(db, certificate.id);
      await db.updateTable("users").set({ full_name: "Jordan Mitchell" }).where("id", "=", student.id).execute();
      const corrected = await ensureCertificatePdf(db, certificate.id);
      expect(corrected!.rendered).toBe(true);
      const text = await pdfText(corrected!.pdf);
      expect(text).toContain("Jordan Mitchell");
      expect(text).not.toContain("Jordon Mitchel");
    },
    SLOW,
  );

  it(
    "can be prepared at issue time, so the first download is already stored",
    async () => {
      const { certificate } = await makeCertifiedStudent(db);
      await prepareCertificatePdf(db, certificate.id);
      expect(await storedVersion(certificate.id)).toBeDefined();
      const renders = certificateRenderCount();
      expect((await ensureCertificatePdf(db, certificate.id))!.rendered).toBe(false);
      expect(certificateRenderCount()).toBe(renders);
      await expect(prepareCertificatePdf(db, crypto.randomUUID())).resolves.toBeUndefined();
    },
    SLOW,
  );

  it(
    "a revoked or a replaced certificate never downloads clean: its page carries why, across it",
    async () => {
      const admin = await makeUser(db, { role: "admin" });
      const revoked = await makeCertifiedStudent(db);
      const clean = await ensureCertificatePdf(db, revoked.certificate.id);
      expect(await pdfText(clean!.pdf)).not.toContain("REVOKED");
      await revokeCertificate(db, {
        certificateId: revoked.certificate.id,
        reason: "Issued in error",
        actorId: admin.id,
        now: new Date("2026-11-20T02:00:00.000Z"),
      });
      const renders = certificateRenderCount();
      const stamped = await ensureCertificatePdf(db, revoked.certificate.id);
      expect(await pdfText(stamped!.pdf)).toContain("REVOKED on 20 Nov 2026: this document is no longer valid");
      expect(stamped!.etag).not.toBe(clean!.etag);
      expect(certificateRenderCount()).toBe(renders);

      const replaced = await makeCertifiedStudent(db);
      const successor = await reissueCertificate(db, { certificateId: replaced.certificate.id, actorId: admin.id });
      expect(await pdfText((await ensureCertificatePdf(db, replaced.certificate.id))!.pdf)).toContain(
        `REPLACED by ${successor.certificate_number}: this document is no longer valid`,
      );
      expect(await pdfText((await ensureCertificatePdf(db, successor.id))!.pdf)).not.toMatch(/REVOKED|REPLACED/);
    },
    SLOW,
  );

  it("answers null for an unknown certificate", async () => {
    expect(await ensureCertificatePdf(db, crypto.randomUUID())).toBeNull();
  });

  it(
    "prints HTML in a name as text, never as markup",
    async () => {
      const name = `<b>Eve</b> & "Mallory" <img src=x onerror=alert(1)>`;
      const { certificate } = await makeCertifiedStudent(db, { fullName: name, courseName: "Rigging <i>basic</i> & more" });
      const text = await pdfText((await ensureCertificatePdf(db, certificate.id))!.pdf);
      expect(text).toContain(name);
      expect(text).toContain("Rigging <i>basic</i> & more");
      const { fields } = await pdfInfo((await ensureCertificatePdf(db, certificate.id))!.pdf);
      expect(fields.Title).toBe(`Certificate ${certificate.number} — Rigging <i>basic</i> & more`);
    },
    SLOW,
  );
});

// the browser's behaviour, the same whichever database the certificate came from: SQLite's run
// covers it, and the PostgreSQL project keeps to the stored documents above
describe.skipIf(TEST_DIALECT === "postgres")("the renderer", () => {
  it(
    "makes no network request for a certificate, and refuses any a page attempts",
    async () => {
      const { certificate } = await makeCertifiedStudent(db);
      const record = await getCertificateDocumentRecord(db, certificate.id);
      const clean = await htmlToPdf(renderCertificateHtml(documentData(record!)));
      expect(clean.blockedRequests).toEqual([]);

      let hits = 0;
      const server = http.createServer((_req, res) => {
        hits += 1;
        res.end("x");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const hostile = await htmlToPdf(
          `<!DOCTYPE html><html><head><link rel="stylesheet" href="${base}/style.css">` +
            `<style>@font-face { font-family: F; src: url(${base}/font.woff2); } body { font-family: F; }</style></head>` +
            `<body><img src="${base}/pixel.png"><iframe src="${base}/frame"></iframe><script src="${base}/app.js"></script>Hi</body></html>`,
        );
        expect(hits).toBe(0);
        expect(hostile.blockedRequests.length).toBeGreaterThanOrEqual(3);
        expect(hostile.blockedRequests.every((url) => url.startsWith(base))).toBe(true);
        expect(hostile.pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      } finally {
        server.close();
      }
    },
    SLOW,
  );

  it(
    "runs at most a few renders at once and queues the rest",
    async () => {
      let peak = 0;
      let queued = 0;
      const sampler = setInterval(() => {
        const s = browserStats();
        peak = Math.max(peak, s.active);
        queued = Math.max(queued, s.waiting);
      }, 2);
      try {
        const html = "<!DOCTYPE html><title>t</title><p>Hello</p>";
        const results = await Promise.all(Array.from({ length: 6 }, () => htmlToPdf(html)));
        expect(results.every((r) => r.pdf.length > 0)).toBe(true);
      } finally {
        clearInterval(sampler);
      }
      expect(peak).toBe(MAX_CONCURRENT_RENDERS);
      expect(queued).toBeGreaterThan(0);
      expect(browserStats()).toMatchObject({ active: 0, waiting: 0 });
    },
    SLOW,
  );

  it(
    "gives up on a render that takes too long, and renders normally afterwards",
    async () => {
      await expect(htmlToPdf("<!DOCTYPE html><p>slow</p>", { timeoutMs: 1 })).rejects.toBeInstanceOf(RenderError);
      const after = await htmlToPdf("<!DOCTYPE html><p>fine</p>");
      expect(after.pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(browserStats()).toMatchObject({ active: 0, waiting: 0 });
    },
    SLOW,
  );

  it(
    "launches a new browser when the shared one dies",
    async () => {
      await htmlToPdf("<!DOCTYPE html><p>warm</p>");
      const browser = currentBrowserForTests();
      expect(browser?.connected).toBe(true);
      const launches = browserStats().launches;
      const exited = new Promise((resolve) => browser!.process()!.once("exit", resolve));
      browser!.process()!.kill("SIGKILL");
      await exited;
      const { certificate } = await makeCertifiedStudent(db);
      const result = await ensureCertificatePdf(db, certificate.id);
      expect(result!.pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(browserStats().launches).toBe(launches + 1);
      expect(currentBrowserForTests()).not.toBe(browser);
    },
    SLOW,
  );
});
