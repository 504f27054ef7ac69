import crypto from "node:crypto";
import QRCode from "qrcode";
import type { DB } from "#db/connection";
import { env } from "~/env.server";
import { getCertificateDocumentWithStored, storeCertificateDocument, type CertificateDocumentRecord } from "~/models/certificates/certificate-document.server";
import { logLine } from "~/utils/log.server";
import { documentOrigin } from "~/utils/public-link.server";
import { htmlToPdf } from "./browser.server";
import { certificationTitle } from "~/utils/certification";
import { TEMPLATE_VERSION, certificateTitle, renderCertificateHtml, type CertificateDocumentData } from "./certificate-template.server";
import { setPdfInfo, stampAcross } from "./pdf-info.server";
import { formatDate } from "~/utils/format";

/**
 * A certificate's PDF is rendered once and kept in certificate_documents; downloads serve the
 * stored bytes. The stored template_version is the template's version plus a fingerprint of
 * the printed values, so a new template, a corrected learner name or unit title, or a new
 * RTO name all render the document again, and nothing else does.
 */

export interface CertificatePdf {
  pdf: Buffer;
  byteLength: number;
  etag: string;
  templateVersion: string;
  renderedAt: string;
  /** true when this call rendered the document, false when it served stored bytes */
  rendered: boolean;
}

/** The public page of a verification code. */
export function verificationPath(code: string): string {
  return `/verify/${encodeURIComponent(code)}`;
}

/**
 * What the document prints. `origin` is where its verification URL points: documentOrigin,
 * never a request's; without one the code is printed without a URL.
 */
export function documentData(record: CertificateDocumentRecord, origin: string | null = documentOrigin()): CertificateDocumentData {
  return {
    certificateNumber: record.certificate_number,
    verificationCode: record.verification_code,
    verificationUrl: origin ? `${origin}${verificationPath(record.verification_code)}` : null,
    learnerName: record.learner_full_name,
    unitTitle: record.unit_title,
    unitCode: record.unit_code,
    tier: record.tier_achieved,
    issueDate: record.issue_date,
    organisationName: env().RTO_NAME,
    rtoCode: env().RTO_CODE,
  };
}

/** The version a stored document must carry to be served as is. */
export function documentVersion(data: CertificateDocumentData): string {
  const fingerprint = crypto.createHash("sha256").update(JSON.stringify(data)).digest("base64url").slice(0, 16);
  return `${TEMPLATE_VERSION}+${fingerprint}`;
}

function etagFor(certificateId: string, version: string, renderedAt: string, byteLength: number): string {
  const hash = crypto.createHash("sha256").update(`${certificateId}|${version}|${renderedAt}|${byteLength}`).digest("base64url");
  return `"${hash.slice(0, 27)}"`;
}

let renders = 0;

/** How many certificate PDFs this process has rendered (tests and measurements). */
export function certificateRenderCount(): number {
  return renders;
}

/** The QR code of a verification URL as SVG markup (the qrcode library; medium error correction survives a worn print). */
export function verificationQrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 0, color: { dark: "#172334", light: "#fffdf8" } });
}

/** Prints one certificate to PDF bytes with its title and author set; stores nothing. */
export async function renderCertificatePdf(data: CertificateDocumentData): Promise<Buffer> {
  const qr = data.verificationUrl ? await verificationQrSvg(data.verificationUrl) : null;
  const { pdf, blockedRequests } = await htmlToPdf(renderCertificateHtml(data, undefined, qr));
  renders += 1;
  if (blockedRequests.length) logLine({ event: "pdf.blocked_requests", count: blockedRequests.length });
  try {
    return await setPdfInfo(pdf, {
      Title: certificateTitle(data),
      Author: data.organisationName,
      Subject: `${certificationTitle(data.unitCode)}: ${data.unitCode} ${data.unitTitle}`,
      Creator: `${data.organisationName} training portal`,
    });
  } catch (error) {
    // A PDF pdf-lib cannot parse is still a usable certificate without the extra entries.
    logLine({ event: "pdf.info_not_set", error: String(error) });
    return pdf;
  }
}

const inFlight = new Map<string, Promise<CertificatePdf>>();

async function renderAndStore(db: DB, certificateId: string, data: CertificateDocumentData, version: string): Promise<CertificatePdf> {
  const started = Date.now();
  const pdf = await renderCertificatePdf(data);
  const renderedAt = new Date().toISOString();
  const row = { template_version: version, pdf, byte_length: pdf.length, rendered_at: renderedAt };
  await storeCertificateDocument(db, certificateId, row);
  logLine({ event: "pdf.rendered", certificateId, ms: Date.now() - started, bytes: pdf.length });
  return {
    pdf,
    byteLength: pdf.length,
    etag: etagFor(certificateId, version, renderedAt, pdf.length),
    templateVersion: version,
    renderedAt,
    rendered: true,
  };
}

/**
 * What a certificate that no longer stands carries across its page, or null for a valid one:
 * a revoked or replaced certificate must never download as a clean document.
 */
export function withdrawnStamp(record: Pick<CertificateDocumentRecord, "revoked_at" | "replaced_by_number">): string | null {
  if (record.revoked_at) return `REVOKED on ${formatDate(record.revoked_at)}`;
  if (record.replaced_by_number) return `REPLACED by ${record.replaced_by_number}`;
  return null;
}

/**
 * The certificate's PDF: the stored one when it is current, else rendered now and stored.
 * Concurrent calls for the same document share one render. A revoked or replaced certificate
 * is stamped across the page as it is served (the stored render stays as issued). Null for
 * an unknown certificate. Checks no access rule: the download route checks the viewer first;
 * the issuing code may call this to render at issue time. Throws RenderError when rendering
 * fails.
 */
export async function ensureCertificatePdf(db: DB, certificateId: string): Promise<CertificatePdf | null> {
  const found = await getCertificateDocumentWithStored(db, certificateId);
  if (!found) return null;
  const { record, stored } = found;
  const data = documentData(record);
  const version = documentVersion(data);
  let document: CertificatePdf;
  if (stored && stored.template_version === version) {
    document = {
      pdf: stored.pdf,
      byteLength: stored.byte_length,
      etag: etagFor(certificateId, version, stored.rendered_at, stored.byte_length),
      templateVersion: version,
      renderedAt: stored.rendered_at,
      rendered: false,
    };
  } else {
    const key = `${certificateId}|${version}`;
    let pending = inFlight.get(key);
    if (!pending) {
      pending = renderAndStore(db, certificateId, data, version).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    document = await pending;
  }
  const stamp = withdrawnStamp(record);
  if (!stamp) return document;
  const pdf = await stampAcross(document.pdf, stamp);
  return { ...document, pdf, byteLength: pdf.length, etag: etagFor(certificateId, `${version}|${stamp}`, document.renderedAt, pdf.length) };
}

/**
 * For the code that issues a certificate: starts rendering its PDF so the first download is
 * already stored. Call it after the issuing transaction has committed (a render takes a
 * second or more and must not hold SQLite's write lock). Never throws: a failed render is
 * logged and simply happens again at the first download.
 */
export function prepareCertificatePdf(db: DB, certificateId: string): Promise<void> {
  return ensureCertificatePdf(db, certificateId).then(
    () => undefined,
    (error: unknown) => logLine({ event: "pdf.prepare_failed", certificateId, error: String(error) }),
  );
}
