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

/**
 * Whether a request's posted form confirms its action. It reads a copy of the body, so the action
 * can still parse the form itself; a body that is not a form confirms nothing.
 */
export async function requestConfirmed(request: Request): Promise<boolean> {
  return isConfirmed(
    await request
      .clone()
      .formData()
      .catch(() => null),
  );
}

/** The page data that asks for confirmation of `intent` (a 200: nothing failed, nothing changed). */
export const confirmationAnswer = (intent: string) => ({ confirm: intent });
