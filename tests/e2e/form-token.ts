import type { APIRequestContext } from "@playwright/test";
import { expect } from "@playwright/test";
import { FORM_TOKEN_FIELD } from "../../app/utils/form-token";

/**
 * The one-time token of the form on `path`, as the page a browser loads holds it
 * (docs/decisions/048-a-repeated-post-stores-once.md): a test that posts a payment, a credit note
 * or a booking by request reads it from the page first, as the browser's form sends it.
 */
export async function formTokenOn(request: APIRequestContext, path: string): Promise<string> {
  const html = await (await request.get(path)).text();
  const token = html.match(new RegExp(`<input[^>]*name="${FORM_TOKEN_FIELD}"[^>]*value="([^"]+)"`))?.[1];
  expect(token, `the form on ${path} carries a token`).toMatch(/^[0-9a-f-]{36}$/);
  return token!;
}
