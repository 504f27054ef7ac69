import { escapeHtml, greeting, htmlMail, textSignature } from "./layout.server";
import type { MailMessage } from "./transport.server";

/**
 * Prose wrapped at 72 characters: a plain-text part whose lines are all short (the link is
 * about 70) is sent as 7bit, so the .eml in the outbox reads as it is, link unbroken.
 */
function wrap(paragraph: string, width = 72): string {
  const lines: string[] = [];
  let line = "";
  for (const word of paragraph.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join("\n");
}

/** The reset email: the link on a line of its own, how long it lasts, and what to do if unasked. */
export function passwordResetEmail(input: {
  to: string;
  fullName: string;
  link: string;
  validMinutes: number;
  rto: { name: string; code: string };
}): MailMessage {
  const text = [
    greeting(input.fullName),
    "",
    wrap(`We received a request to reset the password of your ${input.rto.name} account.`),
    "",
    "Open this link to choose a new password:",
    "",
    input.link,
    "",
    wrap(`The link works once and expires in ${input.validMinutes} minutes.`),
    "",
    wrap("If you did not ask for this, ignore this email: your password stays as it is."),
    "",
    ...textSignature(input.rto),
  ].join("\n");
  const html = htmlMail({
    fullName: input.fullName,
    rto: input.rto,
    body: `<p style="margin:0 0 16px">We received a request to reset the password of your ${escapeHtml(input.rto.name)} account.</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(input.link)}" style="display:inline-block;background:#f07a0b;color:#0e1622;font-weight:bold;text-decoration:none;padding:12px 20px;border-radius:6px">Choose a new password</a></p>
<p style="margin:0 0 16px;font-size:14px">The link works once and expires in ${input.validMinutes} minutes. If the button does not work, copy this address into your browser:<br>${escapeHtml(input.link)}</p>
<p style="margin:0 0 16px;font-size:14px">If you did not ask for this, ignore this email: your password stays as it is.</p>`,
  });
  return { to: input.to, subject: `Reset your ${input.rto.name} password`, text, html };
}
