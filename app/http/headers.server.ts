import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "~/env.server";

/**
 * The security headers every answer carries, and the Content-Security-Policy of documents.
 *
 * A document's inline scripts are allowed either by the nonce of its render (a page rendered
 * for one visitor) or by their SHA-256 hashes (a page the page cache stores and serves to
 * many visitors as the same bytes, where a nonce would be shared and so worthless).
 */

export type ScriptPermit = { nonce: string } | { hashes: string[] } | null;

export function contentSecurityPolicy(scripts: ScriptPermit): string {
  const dev = env().NODE_ENV === "development";
  const inline = !scripts ? "" : "nonce" in scripts ? ` 'nonce-${scripts.nonce}'` : scripts.hashes.map((h) => ` '${h}'`).join("");
  return [
    "default-src 'self'",
    `script-src 'self'${inline}`,
    // sonner injects its stylesheet at run time
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws://localhost:* ws://127.0.0.1:*" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function applySecurityHeaders(headers: Headers, scripts: ScriptPermit = null): void {
  headers.set("Content-Security-Policy", contentSecurityPolicy(scripts));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (env().NODE_ENV === "production") {
    headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
}

/**
 * The front-door step that gives every answer nosniff, the static files express serves
 * included. Documents and /api answers already carry the whole set, which Remix's adapter
 * appends to the response, so nosniff is added only to an answer going out without it.
 */
export function sendNoSniff(_req: IncomingMessage, res: ServerResponse): boolean {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    const given = args.find((a) => typeof a === "object" && a !== null);
    const named = given && !Array.isArray(given) && Object.keys(given).some((k) => k.toLowerCase() === "x-content-type-options");
    if (!named && !this.hasHeader("X-Content-Type-Options")) this.setHeader("X-Content-Type-Options", "nosniff");
    return writeHead.apply(this, args as never);
  } as ServerResponse["writeHead"];
  return false;
}

/** The same headers on a response whose headers may be immutable (Response.redirect, fetch). */
export function withSecurityHeaders(response: Response): Response {
  try {
    applySecurityHeaders(response.headers);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    applySecurityHeaders(copy.headers);
    return copy;
  }
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * The CSP hashes ('sha256-…') of a rendered document's inline scripts. React escapes `<` and
 * `>` in attribute values and `</script` inside scripts, so each script runs from its tag to
 * the first `</script>`.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, body] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes!) || !body) continue;
    hashes.add(`sha256-${crypto.createHash("sha256").update(body, "utf8").digest("base64")}`);
  }
  return [...hashes];
}
