import type { ShouldRevalidateFunction } from "@remix-run/react";
import { FORM_ALREADY_SENT, FORM_TOKEN_FIELD } from "~/utils/form-token";

/**
 * The page's one-time token in its form (docs/decisions/048-a-repeated-post-stores-once.md): the
 * loader writes a fresh one on every load, so a form sent again (twice at once, or from the
 * browser's history) carries a token already spent and stores nothing.
 */
export function FormTokenField({ token }: { token: string }) {
  return <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />;
}

/**
 * A page with a token loads again after its form was refused as a repeat: it then shows what the
 * first post stored, and a fresh token for the next form (after another refusal the page's data
 * stands, as Remix's default keeps it).
 */
export const revalidateAfterRepeat: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as { error?: unknown } | undefined)?.error === FORM_ALREADY_SENT || defaultShouldRevalidate;
