/**
 * The two messages every form shares, whatever it saves: a body that is not the form the page
 * drew (a stale tab, a hand-made post), and the summary above fields that failed their checks.
 * answerForm answers with the first by default; a form whose fields each carry their own message
 * names the second as its summary.
 */
export const FORM_UNREADABLE = "The form could not be read; please try again";
export const FIX_HIGHLIGHTED_FIELDS = "Please correct the highlighted fields";
