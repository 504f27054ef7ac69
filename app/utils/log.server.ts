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
 * What a log must not keep (logs hold user ids, never a token or an address):
 * - tokens in paths: the password-reset link's token, a certificate's verification code (its
 *   page and its /api) and a calendar feed's token: every route whose path carries a `$token`
 *   or `$code` (app/utils/log.server.test.ts holds every such route to this list);
 * - every query string (names and emails typed into searches, codes typed into the verify form);
 * - every email address, wherever it appears (a mail error, a recipient).
 * Applied to this log and to everything the server prints, remix-serve's access log and error
 * output included (app/http/redacted-output.server.ts), so no line shows them.
 */
const SECRET_IN_PATH = /(\/(?:reset-password|verify|calendar|questionnaire|invitation|employer-invitation|referee-report)\/)[^/?#\s"'\\]+/gi;
const QUERY_STRING = /(\/[^\s"'?\\]*)\?[^\s"'\\]+/g;
const EMAIL_ADDRESS = /[\w.!#$%&*+=^`{|}~-]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+/gi;
export const REDACTED = "[redacted]";

export function redactSecrets(text: string): string {
  return text.replace(SECRET_IN_PATH, `$1${REDACTED}`).replace(QUERY_STRING, `$1?${REDACTED}`).replace(EMAIL_ADDRESS, REDACTED);
}
