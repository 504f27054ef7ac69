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
 * Secrets that travel in URLs: the password-reset link's token (a path segment), and query
 * values named like secrets. Applied to this log and to the access log remix-serve prints
 * (app/http/workers.ts), so no line shows them.
 */
const SECRET_IN_PATH = /(\/reset-password\/)[^/?#\s"'\\]+/gi;
const SECRET_IN_QUERY = /([?&](?:token|password|secret|code|key)=)[^&#\s"'\\]*/gi;
export const REDACTED = "[redacted]";

export function redactSecrets(text: string): string {
  return text.replace(SECRET_IN_PATH, `$1${REDACTED}`).replace(SECRET_IN_QUERY, `$1${REDACTED}`);
}
