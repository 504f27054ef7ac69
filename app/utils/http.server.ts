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
