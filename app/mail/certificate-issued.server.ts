import { escapeHtml, greeting, htmlMail, textSignature } from "./layout.server";
import type { MailMessage } from "./transport.server";

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
