import type { Tier } from "#db/schema";
import { formatDate } from "~/utils/format";
import { certificateFontCss } from "./fonts.server";
import { certificationTitle } from "~/utils/certification";

/**
 * The certificate document as HTML, printed to PDF by Chromium. Bump TEMPLATE_VERSION on any
 * change to the markup or styles: stored PDFs of an older version are rendered again.
 */
export const TEMPLATE_VERSION = "certificate-2026-11-23.1";

/**
 * Everything printed on a certificate. Never a student id, USI or date of birth: the Student
 * Identifiers Act keeps the USI off every certificate.
 */
export interface CertificateDocumentData {
  certificateNumber: string;
  /** the code of the certificate's public /verify page, as stored */
  verificationCode: string;
  /** the full URL of that page; null when the portal has no trusted origin to print */
  verificationUrl: string | null;
  learnerName: string;
  /** the unit's official title, printed under its code */
  unitTitle: string;
  unitCode: string;
  tier: Tier;
  /** ISO 8601 instant */
  issueDate: string;
  organisationName: string;
  rtoCode: string;
}

const TIERS: Record<Tier, { label: string; level: string }> = {
  tier_1: { label: "Tier 1", level: "Basic Operations" },
  tier_2: { label: "Tier 2", level: "Intermediate" },
  tier_3: { label: "Tier 3", level: "Advanced" },
};

export const NRT_STATEMENT = "This is a statement that the unit of competency listed has been achieved as nationally recognised training.";

/** The sentence every statement of attainment carries (AQF certification practice). */
export const ATTAINMENT_STATEMENT =
  "A statement of attainment is issued by a registered training organisation when an individual has completed one or more accredited units";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** 22 Nov 2026: the portal's one date format (utils/format), on the RTO's (Sydney) calendar. */
export function formatIssueDate(iso: string): string {
  const shown = formatDate(iso, "");
  if (!shown) throw new Error(`Not a date: ${iso}`);
  return shown;
}

export function certificateTitle(data: Pick<CertificateDocumentData, "certificateNumber" | "unitTitle">): string {
  return `Certificate ${data.certificateNumber} — ${data.unitTitle}`;
}

/** Long names step down in size so every certificate stays on its one page. */
function sizeFor(text: string, steps: Array<[maxChars: number, size: string]>, smallest: string): string {
  const length = [...text].length;
  return steps.find(([max]) => length <= max)?.[1] ?? smallest;
}

/** The hook-and-block mark of the brand (same drawing as the site's logo). */
const MARK = `<svg class="mark" viewBox="0 0 64 64" aria-hidden="true">
  <rect width="64" height="64" rx="12" fill="#f07a0b"/>
  <path d="M12 15h40" stroke="#172334" stroke-width="4.5" stroke-linecap="round"/>
  <path d="M22 15l10-6 10 6" fill="none" stroke="#172334" stroke-width="3" stroke-linejoin="round"/>
  <path d="M32 15v14" stroke="#172334" stroke-width="3.5" stroke-linecap="round"/>
  <rect x="26" y="27" width="12" height="8" rx="2" fill="#172334"/>
  <path d="M32 35v5c0 5 8 5 8 10.5S35.5 57 32 57s-7.5-2-7.5-6" fill="none" stroke="#172334" stroke-width="4" stroke-linecap="round"/>
</svg>`;

/** A rosette seal: a scalloped amber edge, a navy disc and the hook in the middle. */
function seal(rtoCode: string): string {
  const points: string[] = [];
  for (let i = 0; i < 48; i++) {
    const r = i % 2 === 0 ? 49 : 45.5;
    const a = (Math.PI * i) / 24;
    points.push(`${(50 + r * Math.sin(a)).toFixed(2)},${(50 - r * Math.cos(a)).toFixed(2)}`);
  }
  return `<svg class="seal" viewBox="0 0 100 100" aria-hidden="true">
  <polygon points="${points.join(" ")}" fill="#f07a0b"/>
  <circle cx="50" cy="50" r="41" fill="none" stroke="#fffdf8" stroke-width="0.8" stroke-dasharray="1.6 1.6"/>
  <circle cx="50" cy="50" r="37" fill="#172334"/>
  <circle cx="50" cy="50" r="34" fill="none" stroke="#f07a0b" stroke-width="0.6"/>
  <path d="M33 31h34" stroke="#f07a0b" stroke-width="3.2" stroke-linecap="round"/>
  <path d="M50 31v10" stroke="#ffffff" stroke-width="2.4" stroke-linecap="round"/>
  <rect x="45" y="40" width="10" height="6.5" rx="1.5" fill="#ffffff"/>
  <path d="M50 46.5v3.5c0 4 6.5 4 6.5 8.5s-3.7 5.3-6.5 5.3-6-1.6-6-4.8" fill="none" stroke="#ffffff" stroke-width="3" stroke-linecap="round"/>
  <text x="50" y="76" text-anchor="middle" font-family="Inter" font-weight="700" font-size="6" letter-spacing="0.6" fill="#f7a44f">RTO ${escapeHtml(rtoCode)}</text>
</svg>`;
}

const STYLES = `
@page { size: A4 landscape; margin: 0; }
* { box-sizing: border-box; margin: 0; padding: 0; }
html, body { width: 297mm; height: 210mm; }
body {
  background: #ffffff;
  color: #172334;
  font-family: "Inter", "DejaVu Sans", sans-serif;
  -webkit-print-color-adjust: exact;
  print-color-adjust: exact;
}
.sheet { position: relative; width: 297mm; height: 210mm; overflow: hidden; background: #172334; padding: 7mm; }
.paper {
  position: relative; height: 100%; background: #fffdf8; border-radius: 1.5mm;
  padding: 13mm 22mm 12mm; display: flex; flex-direction: column; align-items: center; text-align: center;
}
.paper::before {
  content: ""; position: absolute; inset: 4mm; border: 0.7mm solid #f07a0b; border-radius: 1mm; pointer-events: none;
}
.paper::after {
  content: ""; position: absolute; inset: 5.8mm; border: 0.2mm solid rgba(23, 35, 52, 0.3); border-radius: 0.6mm; pointer-events: none;
}
.corner { position: absolute; width: 9mm; height: 9mm; border-color: #172334; border-style: solid; }
.corner.tl { top: 2.6mm; left: 2.6mm; border-width: 1.4mm 0 0 1.4mm; }
.corner.tr { top: 2.6mm; right: 2.6mm; border-width: 1.4mm 1.4mm 0 0; }
.corner.bl { bottom: 2.6mm; left: 2.6mm; border-width: 0 0 1.4mm 1.4mm; }
.corner.br { bottom: 2.6mm; right: 2.6mm; border-width: 0 1.4mm 1.4mm 0; }
.org { display: flex; align-items: center; gap: 4.5mm; }
.mark { width: 15mm; height: 15mm; flex: none; }
.org-text { text-align: left; }
.org-name { font-family: "Libre Baskerville", "DejaVu Serif", serif; font-weight: 700; font-size: 15pt; line-height: 1.25; }
.org-code { font-size: 8.5pt; font-weight: 600; color: #b85a05; letter-spacing: 0.04em; margin-top: 0.8mm; }
.title {
  font-family: "Libre Baskerville", "DejaVu Serif", serif; font-weight: 400; font-size: 34pt; line-height: 1.1;
  margin-top: 11mm; color: #172334;
}
.rule { display: flex; align-items: center; gap: 3mm; margin-top: 4mm; }
.rule span { display: block; width: 36mm; height: 0.35mm; background: #f07a0b; }
.rule i { display: block; width: 2.4mm; height: 2.4mm; background: #f07a0b; transform: rotate(45deg); }
.lead { font-family: "Libre Baskerville", "DejaVu Serif", serif; font-style: italic; font-size: 12pt; color: #3c4a5e; margin-top: 7mm; }
.learner {
  font-family: "Libre Baskerville", "DejaVu Serif", serif; font-weight: 700; line-height: 1.15; margin-top: 3.5mm;
  max-width: 225mm; min-width: 120mm; overflow-wrap: anywhere; font-variant-ligatures: none;
  padding: 0 8mm 2.5mm; border-bottom: 0.35mm solid #cfd5dd;
}
.achievement { font-size: 10.5pt; color: #3c4a5e; margin-top: 6mm; line-height: 1.5; }
.unit { margin-top: 3.5mm; max-width: 230mm; font-variant-ligatures: none; overflow-wrap: anywhere; }
.unit-code { font-size: 10pt; font-weight: 700; color: #b85a05; letter-spacing: 0.04em; }
.course { font-family: "Libre Baskerville", "DejaVu Serif", serif; font-weight: 700; line-height: 1.3; margin-top: 1.2mm; }
.tier {
  display: inline-block; margin-top: 6.5mm; padding: 1.8mm 5.5mm;
  border-radius: 10mm; background: #172334; color: #ffffff; font-size: 9.5pt; font-weight: 500;
}
.tier b { color: #f7a44f; font-weight: 700; }
.spacer { flex: 1 1 auto; min-height: 2mm; }
.details { width: 100%; display: grid; grid-template-columns: 1fr auto 1fr; gap: 12mm; align-items: end; }
.facts { display: flex; gap: 12mm; text-align: left; padding-bottom: 1mm; }
.label { font-size: 7.5pt; font-weight: 600; color: #6b7685; letter-spacing: 0.08em; text-transform: uppercase; }
.value { font-size: 12pt; font-weight: 600; margin-top: 1.2mm; font-variant-ligatures: none; white-space: nowrap; }
.seal { width: 27mm; height: 27mm; display: block; }
.signature { text-align: center; padding-bottom: 1mm; }
.signature .line { height: 12mm; border-bottom: 0.35mm solid #172334; margin: 0 2mm 1.5mm; }
.signature .who { font-size: 10pt; font-weight: 600; }
.signature .role { font-size: 8.5pt; color: #3c4a5e; margin-top: 0.6mm; }
.nrt {
  width: 100%; margin-top: 5mm; padding-top: 3mm; border-top: 0.25mm solid #d9dde3;
  font-size: 7.5pt; color: #3c4a5e; line-height: 1.5; text-align: center;
}
.nrt strong { color: #172334; font-weight: 700; }
.verify { position: absolute; right: 13mm; top: 12mm; width: 30mm; text-align: center; }
.verify svg { width: 24mm; height: 24mm; display: block; margin: 0 auto; }
.verify .label { margin-top: 1mm; }
.verify-line { margin-top: 1mm; font-size: 7.5pt; color: #3c4a5e; overflow-wrap: anywhere; }
`;

/** The code in groups of four, as printed (typed back with or without the hyphens). */
function grouped(code: string): string {
  return code.match(/.{1,4}/g)?.join("-") ?? code;
}

/**
 * The complete HTML document for one certificate; every value is escaped. `qrSvg` is the QR
 * code of the verification URL (verificationQrSvg), drawn top right when there is a URL.
 */
export function renderCertificateHtml(data: CertificateDocumentData, fontCss = certificateFontCss(), qrSvg: string | null = null): string {
  const tier = TIERS[data.tier] ?? { label: data.tier, level: "" };
  const e = escapeHtml;
  const learnerSize = sizeFor(
    data.learnerName,
    [
      [26, "38pt"],
      [36, "30pt"],
      [50, "24pt"],
      [80, "18pt"],
      [120, "14pt"],
    ],
    "11pt",
  );
  const courseSize = sizeFor(
    data.unitTitle,
    [
      [50, "18pt"],
      [80, "15pt"],
      [120, "12.5pt"],
      [170, "11pt"],
    ],
    "9.5pt",
  );
  const org = e(data.organisationName);
  return `<!DOCTYPE html>
<html lang="en-AU">
<head>
<meta charset="utf-8">
<title>${e(certificateTitle(data))}</title>
<meta name="author" content="${org}">
<style>${fontCss}</style>
<style>${STYLES}</style>
</head>
<body>
<main class="sheet">
  <div class="paper">
    <div class="corner tl"></div><div class="corner tr"></div><div class="corner bl"></div><div class="corner br"></div>
    <header class="org">
      ${MARK}
      <div class="org-text">
        <div class="org-name">${org}</div>
        <div class="org-code">Registered Training Organisation · RTO Code ${e(data.rtoCode)}</div>
      </div>
    </header>
    ${qrSvg && data.verificationUrl ? `<div class="verify">${qrSvg}<div class="label">Scan to verify</div></div>` : ""}
    <h1 class="title">${e(certificationTitle(data.unitCode))}</h1>
    <div class="rule" aria-hidden="true"><span></span><i></i><span></span></div>
    <p class="lead">This is to certify that</p>
    <p class="learner" style="font-size: ${learnerSize}">${e(data.learnerName)}</p>
    <p class="achievement">has successfully completed and been assessed as competent in the nationally recognised unit of competency</p>
    <div class="unit">
      <div class="unit-code">${e(data.unitCode)}</div>
      <div class="course" style="font-size: ${courseSize}">${e(data.unitTitle)}</div>
    </div>
    <div class="tier">Tier achieved: <b>${e(tier.label)}</b>${tier.level ? ` — ${e(tier.level)}` : ""}</div>
    <div class="spacer"></div>
    <section class="details">
      <div class="facts">
        <div>
          <div class="label">Certificate number</div>
          <div class="value">${e(data.certificateNumber)}</div>
        </div>
        <div>
          <div class="label">Date of issue</div>
          <div class="value">${e(formatIssueDate(data.issueDate))}</div>
        </div>
      </div>
      ${seal(data.rtoCode)}
      <div class="signature">
        <div class="line"></div>
        <div class="who">Authorised signatory</div>
        <div class="role">Chief Executive Officer, ${org}</div>
      </div>
    </section>
    <footer class="nrt">
      <p><strong>${e(ATTAINMENT_STATEMENT)}.</strong> ${e(NRT_STATEMENT)}</p>
      <p>Issued by ${org}, Registered Training Organisation ${e(data.rtoCode)}. Verification code ${e(grouped(data.verificationCode))}${
        data.verificationUrl ? `: verify at <span class="verify-url">${e(data.verificationUrl)}</span>` : ", at the issuing RTO's portal (/verify)"
      }</p>
    </footer>
  </div>
</main>
</body>
</html>`;
}
