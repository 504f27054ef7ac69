import { escapeHtml } from "~/pdf/certificate-template.server";

/**
 * What every mail the portal sends shares: the greeting by first name, the RTO's signature and
 * the HTML frame (inline styles only, since mail clients drop style sheets).
 */
export { escapeHtml };

export interface MailRto {
  name: string;
  code: string;
}

/** "Hello Jordan," from a full name; "Hello there," when the name is blank. */
export function greeting(fullName: string): string {
  return `Hello ${fullName.trim().split(/\s+/)[0] || "there"},`;
}

/** The closing lines of the plain-text part. */
export function textSignature(rto: MailRto): string[] {
  return [rto.name, `RTO ID: ${rto.code}`, ""];
}

/** The HTML part: a greeting, the given paragraphs (already escaped markup) and the signature. */
export function htmlMail(input: { fullName: string; rto: MailRto; body: string }): string {
  const { fullName, rto, body } = input;
  return `<!doctype html>
<html lang="en-AU">
<body style="margin:0;padding:24px;background:#f3f6f9;font-family:Arial,Helvetica,sans-serif;color:#172334">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<p style="margin:0 0 16px">${escapeHtml(greeting(fullName))}</p>
${body}
<p style="margin:24px 0 0;font-size:12px;color:#4f6b89">${escapeHtml(rto.name)} &middot; RTO ID: ${escapeHtml(rto.code)}</p>
</td></tr>
</table>
</body>
</html>
`;
}
