import { env } from "~/env.server";
import { logLine } from "~/utils/log.server";
import type { MailMessage, Mailer } from "./transport.server";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

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
  const first = input.fullName.trim().split(/\s+/)[0] || "there";
  const text = [
    `Hello ${first},`,
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
    input.rto.name,
    `RTO ID: ${input.rto.code}`,
    "",
  ].join("\n");
  const html = `<!doctype html>
<html lang="en-AU">
<body style="margin:0;padding:24px;background:#f3f6f9;font-family:Arial,Helvetica,sans-serif;color:#172334">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<p style="margin:0 0 16px">Hello ${escapeHtml(first)},</p>
<p style="margin:0 0 16px">We received a request to reset the password of your ${escapeHtml(input.rto.name)} account.</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(input.link)}" style="display:inline-block;background:#f07a0b;color:#0e1622;font-weight:bold;text-decoration:none;padding:12px 20px;border-radius:6px">Choose a new password</a></p>
<p style="margin:0 0 16px;font-size:14px">The link works once and expires in ${input.validMinutes} minutes. If the button does not work, copy this address into your browser:<br>${escapeHtml(input.link)}</p>
<p style="margin:0 0 16px;font-size:14px">If you did not ask for this, ignore this email: your password stays as it is.</p>
<p style="margin:24px 0 0;font-size:12px;color:#4f6b89">${escapeHtml(input.rto.name)} &middot; RTO ID: ${escapeHtml(input.rto.code)}</p>
</td></tr>
</table>
</body>
</html>
`;
  return { to: input.to, subject: `Reset your ${input.rto.name} password`, text, html };
}

let warnedHost = false;

/**
 * The link in the email: under APP_URL when set, else under the origin the request came to
 * (right on one machine; behind a proxy or on the internet set APP_URL, so a forged Host
 * header can never put someone else's address in the link).
 */
export function passwordResetLink(request: Request, token: string, appUrl: string | undefined = env().APP_URL): string {
  if (!appUrl && env().SMTP_URL && !warnedHost) {
    warnedHost = true;
    logLine({ event: "config-warning", message: "APP_URL is not set: reset links use the request's Host header. Set APP_URL." });
  }
  const base = (appUrl ?? new URL(request.url).origin).replace(/\/+$/, "");
  return `${base}/reset-password/${encodeURIComponent(token)}`;
}

/** Sends the reset email. With the outbox (no SMTP configured) the link is logged too, so whoever runs the portal finds it. */
export async function sendPasswordResetEmail(
  mailer: Mailer,
  input: { to: string; fullName: string; link: string; validMinutes: number; rto: { name: string; code: string } },
): Promise<void> {
  const sent = await mailer.send(passwordResetEmail(input));
  // Logging a live link is acceptable only here: nothing leaves the machine, and the same link
  // already sits in the .eml beside the log.
  if (mailer.kind === "outbox") logLine({ event: "password-reset-link", to: input.to, link: input.link, file: sent.file });
}
