import { useState } from "react";

/**
 * The form-level error of the last submission, hidden once the user edits any field
 * (the message is about what was sent, not what is being typed). Returns the error to show and the form's onChange handler.
 *
 * The dismissal belongs to the submission it was made on, so the next submission's errors
 * show in its very first render: a dialog moving focus to the first field in error finds them.
 */
export function useDismissibleError(error: string | null | undefined, submission: unknown) {
  const [dismissedFor, setDismissedFor] = useState<{ submission: unknown } | null>(null);
  const dismissed = dismissedFor !== null && dismissedFor.submission === submission;
  return { error: dismissed ? null : (error ?? null), onChange: () => setDismissedFor({ submission }) };
}
