import { describe, expect, it } from "vitest";
import {
  ATTAINMENT_STATEMENT,
  NRT_STATEMENT,
  TEMPLATE_VERSION,
  escapeHtml,
  formatIssueDate,
  renderCertificateHtml,
  type CertificateDocumentData,
} from "./certificate-template.server";
import { verificationQrSvg } from "./certificate-pdf.server";
import { certificateFontCss, inlineFontCss } from "./fonts.server";

const data: CertificateDocumentData = {
  certificateNumber: "SCR-2026-00007",
  verificationCode: "ABCDEFGHJKLMNPQR",
  verificationUrl: "https://portal.example.com/verify/ABCDEFGHJKLMNPQR",
  learnerName: "Jordan Mitchell",
  unitTitle: "Licence to perform dogging (DG)",
  unitCode: "CPCCLDG3001",
  tier: "tier_2",
  issueDate: "2026-03-14T01:00:00.000Z",
  organisationName: "Summit Crane & Rigging Training",
  rtoCode: "45678",
};

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    expect(escapeHtml("Zoë O’Brien")).toBe("Zoë O’Brien");
  });
});

describe("formatIssueDate", () => {
  it("writes the date day first with the month in words, on Sydney's calendar", () => {
    expect(formatIssueDate("2026-03-14T01:00:00.000Z")).toBe("14 Mar 2026");
    // 9 pm UTC on the 14th is already the 15th in Sydney
    expect(formatIssueDate("2026-03-14T21:00:00.000Z")).toBe("15 Mar 2026");
    expect(formatIssueDate("2026-07-01")).toBe("1 Jul 2026");
    expect(() => formatIssueDate("not a date")).toThrow();
  });
});

describe("renderCertificateHtml", () => {
  const html = renderCertificateHtml(data, "/* fonts */");

  it("prints every value a certificate needs", () => {
    for (const text of [
      "Summit Crane &amp; Rigging Training",
      "RTO Code 45678",
      "Statement of Attainment",
      "Jordan Mitchell",
      "CPCCLDG3001",
      "Licence to perform dogging (DG)",
      "Tier 2",
      "SCR-2026-00007",
      "14 Mar 2026",
      "Authorised signatory",
      "Chief Executive Officer",
      NRT_STATEMENT,
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toContain("<title>Certificate SCR-2026-00007 — Licence to perform dogging (DG)</title>");
    expect(html).toContain('<html lang="en-AU">');
  });

  it("prints the statement-of-attainment sentence, the grouped code, the URL and the QR code", async () => {
    const qr = await verificationQrSvg(data.verificationUrl!);
    expect(qr).toMatch(/^<svg[^>]*viewBox/);
    const withQr = renderCertificateHtml(data, "/* fonts */", qr);
    expect(withQr).toContain(ATTAINMENT_STATEMENT);
    expect(withQr).toContain("ABCD-EFGH-JKLM-NPQR");
    expect(withQr).toContain("https://portal.example.com/verify/ABCDEFGHJKLMNPQR");
    expect(withQr).toContain(qr);
    // without a trusted origin there is no URL to print or encode
    const noUrl = renderCertificateHtml({ ...data, verificationUrl: null }, "/* fonts */", qr);
    expect(noUrl).not.toContain("<svg xmlns");
    expect(noUrl).toContain("ABCD-EFGH-JKLM-NPQR");
  });

  it("escapes every value, so a name cannot inject markup", () => {
    const hostile = renderCertificateHtml(
      {
        ...data,
        learnerName: `<img src=x onerror="alert(1)">Eve & "Mallory"`,
        unitTitle: "</title><script>alert(2)</script>",
        unitCode: "<b>U</b>",
        certificateNumber: "SCR'><i>",
        organisationName: 'RTO "><style>*{display:none}</style>',
        rtoCode: "<1>",
      },
      "",
    );
    for (const raw of ["<img", "<script", "<b>U</b>", "'><i>", "<style>*", "<1>"]) expect(hostile).not.toContain(raw);
    expect(hostile).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;Eve &amp; &quot;Mallory&quot;");
    expect(hostile).toContain('<meta name="author" content="RTO &quot;&gt;&lt;style&gt;');
    expect(hostile).toContain("&lt;/title&gt;&lt;script&gt;");
  });

  it("shrinks a long name so the certificate stays on one page", () => {
    const sizeOf = (name: string) => /class="learner" style="font-size: ([\d.]+pt)"/.exec(renderCertificateHtml({ ...data, learnerName: name }, ""))![1];
    expect(sizeOf("Jordan Mitchell")).toBe("38pt");
    expect(sizeOf("x".repeat(200))).toBe("11pt");
  });

  it("refers to nothing outside the document: no scripts, no links, no remote URLs", () => {
    // the verification URL is printed as text (checked below), so leave it out here
    const full = renderCertificateHtml({ ...data, verificationUrl: null });
    expect(full).not.toMatch(/<script|<link|<img|@import|https?:\/\//i);
    const printed = renderCertificateHtml(data);
    expect(printed).not.toMatch(/<script|<link|<img|@import|(?:src|href)\s*=/i);
    expect(printed.match(/https?:\/\/[^\s<"]+/g)).toEqual([data.verificationUrl]);
    const urls = [...full.matchAll(/url\(([^)]*)\)/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.every((u) => u.startsWith("data:font/woff2;base64,"))).toBe(true);
  });

  it("has a version that stored documents are checked against", () => {
    expect(TEMPLATE_VERSION).toMatch(/^certificate-/);
  });
});

describe("certificate fonts", () => {
  it("inlines the project's Libre Baskerville and Inter as woff2 data URLs", () => {
    const css = certificateFontCss();
    expect(css).toContain("font-family: 'Libre Baskerville'");
    expect(css).toContain("font-family: 'Inter'");
    expect(css).toMatch(/font-weight: 700/);
    expect(css).not.toMatch(/\.woff\)|url\(\.\//);
    expect(certificateFontCss()).toBe(css);
  });

  it("rewrites each src to one data URL", () => {
    const css = "@font-face { font-family: 'X'; src: url(./files/x.woff2) format('woff2'), url(./files/x.woff) format('woff'); }";
    const out = inlineFontCss(css, (file) => {
      expect(file).toBe("./files/x.woff2");
      return Buffer.from("font");
    });
    expect(out).toBe("@font-face { font-family: 'X'; src: url(data:font/woff2;base64,Zm9udA==) format('woff2'); }");
  });
});
