import { json } from "@remix-run/node";
import { isDomainError } from "./errors";

/** The /api error body of CONTRACT.md section 5. */
export function apiError(status: number, detail: string, extra: Record<string, unknown> = {}): Response {
  return json({ detail, ...extra }, { status });
}

/** Maps a thrown domain error to its /api answer; anything else is rethrown. */
export function apiErrorFrom(error: unknown): Response {
  if (error instanceof Response) return error;
  if (isDomainError(error)) {
    const extra = Object.keys(error.fieldErrors).length ? { errors: error.fieldErrors } : {};
    return apiError(error.status, error.message, extra);
  }
  throw error;
}
