import { logLine, redactSecrets } from "~/utils/log.server";
import { requestContext } from "./request-context.server";

/**
 * The request log: one line per request Remix answers (documents, data requests and resource
 * routes, each through its own hook), with the path as it may be logged.
 */

/** The path of a request as it may be logged: no query string, secrets replaced. */
export function loggablePath(request: Request): string {
  return redactSecrets(new URL(request.url).pathname);
}

export function logRequest(request: Request, status: number): void {
  const ctx = requestContext(request);
  logLine({
    method: request.method,
    path: loggablePath(request),
    status,
    ms: ctx?.started ? Date.now() - ctx.started : undefined,
    user: ctx?.userId ?? null,
  });
}
