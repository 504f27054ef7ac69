/**
 * A failure the domain layer reports to its callers. Routes turn it into a page message or
 * a JSON `{detail}` with `status`; models never see a Request.
 *
 * `field` names the one input a failure is about (a taken email, say): a form shows the message
 * beside that field, while the /api answers with the message alone, as `detail`.
 */
export class DomainError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 503,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
    readonly field?: string,
    /** for 429 and 503: when asking again can succeed, sent as Retry-After */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** Too many requests from one client or for one account; says when to come back. */
export const tooMany = (message: string, retryAfterSeconds: number) => new DomainError(429, message, {}, undefined, retryAfterSeconds);

/** `field`: the form field that named it (a choice of another record than the page's own), where a form shows the message. */
export const notFound = (what: string, field?: string) => new DomainError(404, `${what} not found`, {}, field);
export const conflict = (message: string, field?: string) => new DomainError(409, message, {}, field);
export const invalid = (message: string, fieldErrors: Record<string, string> = {}) => new DomainError(422, message, fieldErrors);

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
