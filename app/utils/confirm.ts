/**
 * Destructive actions are asked for twice (components/ui/confirm-action.tsx): the post that does
 * it carries `confirm=yes`; one without it is answered with the question.
 */
export const CONFIRMED_FIELD = "confirm";
export const CONFIRMED_VALUE = "yes";

/** Whether a posted form confirms its destructive action. */
export function isConfirmed(form: FormData | null | undefined): boolean {
  return form?.get(CONFIRMED_FIELD) === CONFIRMED_VALUE;
}

/** The page data that asks for confirmation of `intent` (a 200: nothing failed, nothing changed). */
export const confirmationAnswer = (intent: string) => ({ confirm: intent });
