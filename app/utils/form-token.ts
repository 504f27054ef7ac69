/**
 * The one-time token a money or seat form carries (docs/decisions/048-a-repeated-post-stores-once.md):
 * its field's name and what a post is told about it. Free of zod and server code, so pages and
 * their components import them; app/schemas/form-token.ts builds the validation from them.
 */

/** The hidden field that carries the page's token. */
export const FORM_TOKEN_FIELD = "form_token";

/** A second post of a form's token: the first one stored the change. */
export const FORM_ALREADY_SENT = "This form was already sent; nothing was stored twice";

/** A post without a token, or with one no page of ours wrote: a page opened before the token. */
export const FORM_TOKEN_MISSING = "This page is out of date: open it again, check what it shows, then send the form from there. Nothing was stored.";

/** The /api's header that makes a repeated call store once (its words for the OpenAPI document too). */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** A second call with an Idempotency-Key the caller already used. */
export const IDEMPOTENCY_KEY_USED = (key: string) => `${IDEMPOTENCY_KEY_HEADER} "${key}" was already used; nothing was stored twice`;

/** An Idempotency-Key the /api cannot keep. */
export const IDEMPOTENCY_KEY_INVALID = `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters (a UUID, say)`;

/** How long a spent token (a form's or an Idempotency-Key) is kept: a repeat later than this is not recognised. */
export const SPENT_TOKEN_KEEP_DAYS = 30;
