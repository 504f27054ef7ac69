/**
 * Reads the .eml files the outbox mailer writes (tests only): headers, and the text and HTML
 * bodies decoded from quoted-printable or base64. Enough MIME for messages nodemailer composes.
 */
export interface ParsedEml {
  headers: Record<string, string>;
  text: string | null;
  html: string | null;
}

function split(raw: string): { head: Record<string, string>; body: string } {
  const normalized = raw.replace(/\r\n/g, "\n");
  const at = normalized.indexOf("\n\n");
  const headText = at === -1 ? normalized : normalized.slice(0, at);
  const body = at === -1 ? "" : normalized.slice(at + 2);
  const head: Record<string, string> = {};
  for (const line of headText.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) head[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { head, body };
}

function decode(body: string, encoding: string | undefined): string {
  switch ((encoding ?? "7bit").toLowerCase()) {
    case "quoted-printable": {
      const bytes = body.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      return Buffer.from(bytes, "latin1").toString("utf8");
    }
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

export function parseEml(raw: string): ParsedEml {
  const { head, body } = split(raw);
  const out: ParsedEml = { headers: head, text: null, html: null };
  const visit = (headers: Record<string, string>, content: string) => {
    const type = headers["content-type"] ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      for (const part of content.split(`--${boundary}`).slice(1)) {
        if (part.startsWith("--")) break;
        const inner = split(part.replace(/^\n/, ""));
        visit(inner.head, inner.body.replace(/\n$/, ""));
      }
    } else if (/^text\/html/i.test(type)) {
      out.html ??= decode(content, headers["content-transfer-encoding"]);
    } else if (/^text\/plain/i.test(type)) {
      out.text ??= decode(content, headers["content-transfer-encoding"]);
    }
  };
  visit(head, body);
  return out;
}

/** The first password reset link in a message's text. */
export function resetLinkIn(mail: ParsedEml): string | null {
  return /https?:\/\/\S+\/reset-password\/[A-Za-z0-9_%-]+/.exec(mail.text ?? "")?.[0] ?? null;
}
