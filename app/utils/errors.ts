/**
 * A failure the domain layer reports to its callers. Routes turn it into a page message or
 * a JSON `{detail}` with `status`; models never see a Request.
 */
export class DomainError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (what: string) => new DomainError(404, `${what} not found`);
export const conflict = (message: string) => new DomainError(409, message);
export const invalid = (message: string, fieldErrors: Record<string, string> = {}) =>
  new DomainError(422, message, fieldErrors);

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
