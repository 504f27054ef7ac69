import { byUrlId } from "./page-records.server";

/**
 * What a file route (a PDF, a CSV, a stored upload) answers when it gives no file: one line of
 * plain text. A browser following a download link shows it as a readable page, where a JSON
 * string or an HTML error page would read as a fault of the portal; nosniff keeps the browser
 * from guessing another type, and no-store keeps the refusal out of any cache.
 */
export function fileRefusal(message: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", ...headers },
  });
}

/** The 404 of a file route: the same answer for a missing file and one the asker may not have. */
export function fileNotFound(message: string): Response {
  return fileRefusal(message, 404);
}

/**
 * A file route's record from its URL id, as foundOr404 finds a page's: a malformed id, an
 * unknown one and another owner's are the same 404 (fileNotFound), so a probe learns nothing.
 */
export async function fileRecordOr404<T>(id: string | undefined, find: (id: string) => Promise<T | null | undefined>, message: string): Promise<T> {
  const record = await byUrlId(id, find);
  if (!record) throw fileNotFound(message);
  return record;
}
