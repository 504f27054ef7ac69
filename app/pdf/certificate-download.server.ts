import type { DB } from "#db/connection";
import { getCertificateDocumentRecord } from "~/models/certificates/certificate-document.server";
import { getCertificateForViewer } from "~/models/certificates/certificate.server";
import { ensureCertificatePdf } from "~/pdf/certificate-pdf.server";
import { uuid } from "~/schemas/fields";
import { attachmentDisposition, certificateFileName } from "~/utils/certification";
import { logLine } from "~/utils/log.server";

/**
 * A certificate's PDF as an HTTP answer for someone who may see it, shared by the /api download
 * and the pages' download link: the same bytes, ETag and revalidation, named either as the /api
 * contract names it (certificate_{id}.pdf) or for a person (document, number and learner). Each
 * route answers "not found" and "unavailable" in its own way.
 */

const CACHE_CONTROL = "private, max-age=0, must-revalidate";

export type CertificateFileName = "api" | "person";
export type CertificateAnswer = { kind: "file"; response: Response } | { kind: "not_found" } | { kind: "unavailable" };

function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

export async function certificatePdfAnswer(
  db: DB,
  request: Request,
  viewer: Parameters<typeof getCertificateForViewer>[2],
  id: string,
  naming: CertificateFileName,
): Promise<CertificateAnswer> {
  if (!uuid.safeParse(id).success) return { kind: "not_found" };
  const certificate = await getCertificateForViewer(db, id, viewer);
  if (!certificate) return { kind: "not_found" };

  let document;
  try {
    document = await ensureCertificatePdf(db, id);
  } catch (error) {
    logLine({ event: "pdf.failed", certificateId: id, error: String(error) });
    return { kind: "unavailable" };
  }
  if (!document) return { kind: "not_found" };

  const headers = new Headers({ ETag: document.etag, "Cache-Control": CACHE_CONTROL });
  if (matchesEtag(request.headers.get("If-None-Match"), document.etag)) {
    return { kind: "file", response: new Response(null, { status: 304, headers }) };
  }
  headers.set("Content-Type", "application/pdf");
  headers.set("Content-Length", String(document.byteLength));
  if (naming === "api") {
    headers.set("Content-Disposition", `attachment; filename="certificate_${id}.pdf"`);
  } else {
    const record = await getCertificateDocumentRecord(db, id);
    headers.set(
      "Content-Disposition",
      attachmentDisposition(
        certificateFileName({ nationalCode: certificate.course.unit_code, number: certificate.certificate_number, learner: record?.learner_full_name ?? "" }),
      ),
    );
  }
  const body = new Uint8Array(document.pdf.buffer as ArrayBuffer, document.pdf.byteOffset, document.pdf.byteLength);
  return { kind: "file", response: new Response(body, { status: 200, headers }) };
}
