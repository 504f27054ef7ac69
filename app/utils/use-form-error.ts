import { useEffect, useState } from "react";

/**
 * The form-level error of the last submission, hidden once the user edits any field
 * (the message is about what was sent, not what is being typed). Returns the error to show and the form's onChange handler.
 */
export function useDismissibleError(error: string | null | undefined, submission: unknown) {
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => setDismissed(false), [submission]);
  return { error: dismissed ? null : error ?? null, onChange: () => setDismissed(true) };
}
