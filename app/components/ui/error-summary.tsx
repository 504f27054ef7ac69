import { useEffect, useId, useRef } from "react";

/** What a failed submission hands back to its page (FormFailure's shape, see form-action.server.ts). */
export interface SummarisedFailure {
  error?: string | null;
  fieldErrors?: Record<string, string>;
  submittedAt?: number;
}

/**
 * The error summary at the top of a form that failed: the form's message, then each field's
 * error as a link to its field (`#<field id>`; a field's id is its name unless the form says
 * otherwise in `fieldIds`). It takes focus as the answer loads, so the reader lands on it:
 * without JavaScript by the `autofocus` attribute the server writes (the browser focuses it and
 * scrolls it into view: docs/decisions/023-errors-where-the-eye-is.md), with JavaScript by React
 * on mount. The key is the submission, so a second failure mounts (and focuses) it again.
 */
export function ErrorSummary({
  failure,
  fieldIds = {},
  title = "There is a problem",
  only,
  order,
}: {
  failure: SummarisedFailure | null | undefined;
  fieldIds?: Record<string, string>;
  title?: string;
  /** the fields of this form, when the page's failure may belong to another form of the page */
  only?: readonly string[];
  /** the form's fields top to bottom, when its schema lists them in another order: the summary reads as the form does */
  order?: readonly string[];
}) {
  const headingId = useId();
  const ref = useRef<HTMLDivElement>(null);
  // after the page's own effects (a modal settling its focus), the summary has the last word
  useEffect(() => {
    const timer = setTimeout(() => ref.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [failure?.submittedAt]);
  if (!failure) return null;
  const place = (name: string) => (order?.includes(name) ? order.indexOf(name) : (order?.length ?? 0));
  const fields = Object.entries(failure.fieldErrors ?? {})
    .filter(([name]) => name !== "form" && name !== "body" && (!only || only.includes(name)))
    .sort(([a], [b]) => place(a) - place(b));
  const message = failure.error ?? null;
  if (!message && fields.length === 0) return null;
  // the form's message repeats the first field's error when that is all it says
  const lead = message && !fields.some(([, text]) => text === message) ? message : null;
  return (
    <div
      key={failure.submittedAt ?? "failure"}
      ref={ref}
      autoFocus
      tabIndex={-1}
      // announced at once too, as the form's message was before (a reader whose focus stays put hears it)
      role="alert"
      aria-labelledby={headingId}
      data-error-summary=""
      className="scroll-mt-4 rounded-md border-2 border-red-700 bg-red-50 px-4 py-3 text-sm text-red-900 focus:outline-none focus:ring-4 focus:ring-red-300"
    >
      <h2 id={headingId} className="text-base font-bold">
        {title}
      </h2>
      {lead ? <p className="mt-1 font-medium">{lead}</p> : null}
      {fields.length ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {fields.map(([name, text]) => (
            <li key={name}>
              <a href={`#${fieldIds[name] ?? name}`} className="font-semibold text-red-900 underline underline-offset-2 hover:text-red-700">
                {text}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
