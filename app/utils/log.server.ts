import { env } from "~/env.server";

/**
 * One JSON line per event on stdout. Callers pass only what is safe to keep: never a
 * password, token or cookie. As a second line of defence every line goes through
 * redactSecrets, so a path carrying a reset token is never written as it came.
 */
export function logLine(fields: Record<string, unknown>): void {
  if (env().LOG_LEVEL === "silent") return;
  process.stdout.write(`${redactSecrets(JSON.stringify({ time: new Date().toISOString(), ...fields }))}\n`);
}

/**
 * What travels in URLs that a log must not keep: the password-reset link's token and a
 * certificate's verification code (path segments), and every query string (names and emails
 * typed into searches, codes typed into the verify form). Applied to this log and to the access
 * log remix-serve prints (app/http/redacted-output.server.ts), so no line shows them.
 */
const SECRET_IN_PATH = /(\/(?:reset-password|verify)\/)[^/?#\s"'\\]+/gi;
const QUERY_STRING = /(\/[^\s"'?\\]*)\?[^\s"'\\]+/g;
export const REDACTED = "[redacted]";

export function redactSecrets(text: string): string {
  return text.replace(SECRET_IN_PATH, `$1${REDACTED}`).replace(QUERY_STRING, `$1?${REDACTED}`);
}
