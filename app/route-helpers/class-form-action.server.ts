import { formToObject } from "~/utils/validation";
import { sessionRows, type SessionRow } from "~/schemas/class";

/** What "Add a session" and a row's "Remove" answer: the rows changed, nothing saved. */
export interface SessionRowsAnswer {
  rows: SessionRow[];
  values: Record<string, string>;
  focusRow: number | null;
  submittedAt: number;
}

const asList = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * The class form's row buttons without JavaScript (intent `add-session`, `remove-session-<n>`):
 * the form goes back to the page as typed, one row more or less, the cursor in a new row. Null
 * when the submission is a save.
 */
export function sessionRowsAnswer(form: FormData): SessionRowsAnswer | null {
  const intent = form.get("intent");
  const match = typeof intent === "string" ? /^(add-session|remove-session-(\d{1,2}))$/.exec(intent) : null;
  if (!match) return null;
  const entries = formToObject(form);
  let rows = sessionRows({
    session_date: asList(entries.session_date),
    session_start: asList(entries.session_start),
    session_end: asList(entries.session_end),
  });
  if (match[2] !== undefined) rows = rows.filter((_, i) => i !== Number(match[2]));
  if (match[2] === undefined) rows = [...rows, { date: "", starts_at: "", ends_at: "" }].slice(0, 60);
  const values = Object.fromEntries(["location_id", "trainer_id", "seats"].map((k) => [k, String(form.get(k) ?? "")]));
  return { rows, values, focusRow: match[2] === undefined ? rows.length - 1 : null, submittedAt: Date.now() };
}
