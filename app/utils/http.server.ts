import { uuid } from "~/schemas/fields";
import { isDomainError } from "~/utils/errors";

/**
 * A JSON answer that must stay a Response: the /api's answers, the gate's refusals and a page's
 * thrown 404. Its Content-Type keeps the charset those answers have always carried, so no client
 * sees a change of header; a page's own data is a plain object or `data()` instead.
 */
export function jsonResponse(value: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json; charset=utf-8");
  return Response.json(value, { ...init, headers });
}

/**
 * A page route's `headers`: an action's Retry-After (a form over a rate limit, or busy) reaches the
 * document response, which Remix otherwise builds from the route's headers function alone.
 */
export function retryAfterFromAction({ actionHeaders }: { actionHeaders: Headers }): HeadersInit {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : {};
}

/**
 * A page's record from its URL id: a malformed id and an unknown one are the same 404 with the
 * page's message, so a probe learns nothing from the difference.
 */
export async function foundOr404<T>(id: string | undefined, find: (id: string) => Promise<T | null | undefined>, message: string): Promise<T> {
  const parsed = uuid.safeParse(id);
  const record = parsed.success ? await find(parsed.data) : null;
  if (!record) throw jsonResponse(message, { status: 404 });
  return record;
}

/**
 * A page loader's read that a model may refuse (an unknown id, another's record): the model's
 * refusal becomes the page's thrown answer with its status, never a server error.
 */
export async function readOrRefuse<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isDomainError(error)) throw jsonResponse(error.message, { status: error.status });
    throw error;
  }
}
