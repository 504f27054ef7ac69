import { env, isLoopbackHost } from "~/env.server";
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

/**
 * The link in the email, or null when there is no address it may safely name. Under APP_URL
 * when set; without it, under the origin the request came to only when that is this machine
 * (localhost, 127.0.0.1, [::1]): any other Host header may be forged, and a link built from it
 * would carry a live token to someone else's site.
 */
export function passwordResetLink(request: Request, token: string, appUrl: string | undefined = env().APP_URL): string | null {
  return secretLink(request, `/reset-password/${encodeURIComponent(token)}`, appUrl);
}

/** A link that carries a secret in its path (a reset or an invitation), under the address rule above. */
export function secretLink(request: Request, path: string, appUrl: string | undefined = env().APP_URL): string | null {
  const origin = new URL(request.url);
  if (!appUrl && !isLoopbackHost(origin.hostname)) return null;
  const base = (appUrl ?? origin.origin).replace(/\/+$/, "");
  return `${base}${path}`;
}
