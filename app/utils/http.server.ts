import { json } from "@remix-run/node";
import { uuid } from "~/schemas/fields";

/**
 * A page route's `headers`: an action's Retry-After (a form over a request limit, or busy) reaches the
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
  if (!record) throw json(message, { status: 404 });
  return record;
}
