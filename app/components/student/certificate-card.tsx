import { useState, type MouseEvent } from "react";
import { toastMessage } from "~/components/toaster";
import { buttonClasses, Card } from "~/components/ui";
import { certificationTitle, fileNameFromDisposition } from "~/utils/certification";
import { formatDate, tierLabel } from "~/utils/format";
import type { StudentCertificateData } from "./student-data";

export const DOWNLOAD_OK = "Certificate downloaded successfully";
export const DOWNLOAD_FAILED = "Failed to download certificate";

function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Download PDF: a plain link to the pages' certificate route (the browser saves the attachment without
 * JavaScript). With JavaScript the click is fetched instead, so success and failure can be told
 * as toasts.
 */
export function CertificateDownloadLink({ certificate }: { certificate: StudentCertificateData }) {
  const [busy, setBusy] = useState(false);
  const href = `/certificates/${certificate.id}/download`;

  async function onClick(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const response = await fetch(href, { credentials: "same-origin", headers: { Accept: "application/pdf" } });
      // A lapsed session ends at the login page with 200, so the type is checked too.
      if (!response.ok || !response.headers.get("Content-Type")?.includes("application/pdf")) {
        throw new Error(`Download answered ${response.status}`);
      }
      // named as the server names it: document, number and learner
      saveBlob(await response.blob(), fileNameFromDisposition(response.headers.get("Content-Disposition")) ?? `${certificate.certificate_number}.pdf`);
      toastMessage("success", DOWNLOAD_OK);
    } catch {
      toastMessage("error", DOWNLOAD_FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <a href={href} onClick={onClick} aria-busy={busy || undefined} className={buttonClasses("primary", "sm")}>
      {busy ? "Downloading..." : "Download PDF"}
      <span className="sr-only"> for {certificate.course.unit_title}</span>
    </a>
  );
}

export function CertificateCard({ certificate }: { certificate: StudentCertificateData }) {
  return (
    // named by its title, course and number: every statement has the same title, and a region's
    // name tells it apart from the others in a screen reader's list of landmarks
    <Card
      className="flex flex-col overflow-hidden"
      aria-labelledby={`certificate-${certificate.id} certificate-${certificate.id}-course certificate-${certificate.id}-number`}
    >
      <div className="border-b-4 border-hivis-500 bg-steel-900 px-5 py-4 text-white">
        <p className="text-xs font-semibold uppercase tracking-wide text-hivis-300">{tierLabel(certificate.tier_achieved)}</p>
        <h2 id={`certificate-${certificate.id}`} className="mt-1 font-serif text-lg font-bold">
          {certificationTitle(certificate.course.unit_code)}
        </h2>
      </div>
      <div className="flex flex-1 flex-col p-5">
        <p id={`certificate-${certificate.id}-course`} className="font-semibold text-steel-900">
          {certificate.course.unit_title}
        </p>
        <p className="text-xs font-medium uppercase tracking-wide text-steel-500">{certificate.course.unit_code}</p>
        <dl className="mt-4 space-y-2 text-sm">
          <div className="flex justify-between gap-3">
            <dt className="text-steel-500">Certificate number</dt>
            <dd id={`certificate-${certificate.id}-number`} className="font-mono font-semibold text-steel-900">
              {certificate.certificate_number}
            </dd>
          </div>
          <div className="flex justify-between gap-3">
            <dt className="text-steel-500">Issued</dt>
            <dd className="font-semibold text-steel-900">{formatDate(certificate.issue_date)}</dd>
          </div>
        </dl>
        <div className="mt-5">
          <CertificateDownloadLink certificate={certificate} />
        </div>
      </div>
    </Card>
  );
}
