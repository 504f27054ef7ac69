import { uuid } from "~/schemas/fields";
import { isDomainError } from "~/utils/errors";
import { jsonResponse } from "~/utils/http.server";

/**
 * A page's record from its URL id: a malformed id and an unknown one are the same 404 with the
 * page's message, so a probe learns nothing from the difference.
 */
export async function foundOr404<T>(id: string | undefined, find: (id: string) => Promise<T | null | undefined>, message: string): Promise<T> {
  const record = await byUrlId(id, find);
  if (!record) throw jsonResponse(message, { status: 404 });
  return record;
}

/** The record a URL id names, or null for an id that is no UUID (never sent to the database) or that finds nothing. */
export async function byUrlId<T>(id: string | undefined, find: (id: string) => Promise<T | null | undefined>): Promise<T | null> {
  const parsed = uuid.safeParse(id);
  return (parsed.success ? await find(parsed.data) : null) ?? null;
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
