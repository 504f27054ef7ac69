import type { DB } from "#db/connection";
import { env } from "~/env.server";
import { prepareCertificatePdf, verificationPath } from "~/pdf/certificate-pdf.server";
import { getCertificateDocumentRecord } from "~/models/certificate.server";
import { logLine } from "~/utils/log.server";
import { linkOrigin } from "~/utils/public-link.server";
import { escapeHtml, greeting, htmlMail, textSignature } from "./layout.server";
import { getMailer, type MailMessage } from "./transport.server";

/** The mail a student gets when a certificate is issued to them: the unit, the number and the verification link. */
export function certificateIssuedEmail(input: {
  to: string;
  fullName: string;
  certificateNumber: string;
  unit: string;
  link: string;
  rto: { name: string; code: string };
}): MailMessage {
  const text = [
    greeting(input.fullName),
    "",
    `Your statement of attainment for ${input.unit} has been issued.`,
    `Certificate number: ${input.certificateNumber}`,
    "",
    "Anyone you show it to can check it at:",
    "",
    input.link,
    "",
    "Download the PDF from My Certificates in the student portal.",
    "",
    ...textSignature(input.rto),
  ].join("\n");
  const e = escapeHtml;
  const html = htmlMail({
    fullName: input.fullName,
    rto: input.rto,
    body: `<p style="margin:0 0 16px">Your statement of attainment for <strong>${e(input.unit)}</strong> has been issued. Certificate number: <strong>${e(input.certificateNumber)}</strong>.</p>
<p style="margin:0 0 16px">Anyone you show it to can check it at <a href="${e(input.link)}">${e(input.link)}</a>.</p>
<p style="margin:0 0 16px">Download the PDF from My Certificates in the student portal.</p>`,
  });
  return { to: input.to, subject: `Your statement of attainment ${input.certificateNumber}`, text, html };
}

/**
 * After a certificate is issued (its transaction committed): render its PDF ahead of the first
 * download and mail the student the verification link. Both run in the background and never
 * throw; without a trusted origin for the link (linkOrigin) no mail is sent and the log says why.
 */
export async function announceCertificate(db: DB, request: Request, certificateId: string): Promise<void> {
  const origin = linkOrigin(request);
  void prepareCertificatePdf(db, certificateId);
  try {
    const record = await getCertificateDocumentRecord(db, certificateId);
    if (!record) return;
    if (!origin) {
      logLine({ event: "mail-skipped", kind: "certificate-issued", reason: "no APP_URL and the request's origin is not loopback" });
      return;
    }
    const message = certificateIssuedEmail({
      to: record.learner_email,
      fullName: record.learner_full_name,
      certificateNumber: record.certificate_number,
      unit: `${record.unit_code} ${record.course_name}`,
      link: `${origin}${verificationPath(record.verification_code)}`,
      rto: { name: env().RTO_NAME, code: env().RTO_CODE },
    });
    void getMailer()
      .send(message)
      .catch((error: unknown) => logLine({ event: "mail-error", kind: "certificate-issued", error: String(error) }));
  } catch (error) {
    logLine({ event: "mail-error", kind: "certificate-issued", error: String(error) });
  }
}
