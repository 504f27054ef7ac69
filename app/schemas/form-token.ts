import { z } from "zod";
import { FORM_TOKEN_FIELD, FORM_TOKEN_MISSING, IDEMPOTENCY_KEY_INVALID } from "~/utils/form-token";

/** The token a page's loader writes into its form: a random UUID. */
export const formToken = z.uuid({ error: FORM_TOKEN_MISSING });

/**
 * A money or seat form's schema with its one-time token: the /api's payload stays the bare
 * schema (its calls carry an Idempotency-Key header instead), the page's form adds the token.
 */
export function withFormToken<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  return schema.extend({ [FORM_TOKEN_FIELD]: formToken });
}

/** An /api call's Idempotency-Key: any visible ASCII up to 255 characters, as clients generate them. */
export const idempotencyKey = z.string().regex(/^[\x21-\x7e]{1,255}$/, IDEMPOTENCY_KEY_INVALID);
