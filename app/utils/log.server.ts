/**
 * One JSON line per event on stdout. Callers pass only what is safe to keep: never a
 * password, token or cookie.
 */
export function logLine(fields: Record<string, unknown>): void {
  if (process.env.LOG_LEVEL === "silent") return;
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);
}
