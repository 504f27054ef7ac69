import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { buttonClasses } from "./button";
import { SubmitButton } from "./submit-button";
import { CONFIRMED_FIELD, CONFIRMED_VALUE } from "~/utils/confirm";

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The question itself: what will happen and to whom, then "do it" (the post with confirm=yes) or keep things as they are. */
function ConfirmPanel({
  titleId,
  title,
  intent,
  fields,
  posted,
  confirmLabel,
  busyLabel,
  keep,
  children,
}: {
  titleId: string;
  title: string;
  intent: string;
  fields?: Record<string, string>;
  posted?: ReadonlyArray<readonly [string, string]>;
  confirmLabel: string;
  busyLabel: string;
  keep: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <h3 id={titleId} className="text-base font-bold text-steel-900">
        {title}
      </h3>
      <div className="mt-2 space-y-2 text-sm text-steel-800">{children}</div>
      <Form method="post" className="mt-4 flex flex-wrap justify-end gap-2">
        {(posted ?? []).map(([name, value], i) => (
          <input key={`posted-${i}`} type="hidden" name={name} value={value} />
        ))}
        {Object.entries(fields ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name={CONFIRMED_FIELD} value={CONFIRMED_VALUE} />
        {keep}
        <SubmitButton intent={intent} variant="danger" busyLabel={busyLabel}>
          {confirmLabel}
        </SubmitButton>
      </Form>
    </>
  );
}

/**
 * A destructive action asked for twice: its button, then a question that names what will
 * happen and to whom. With JavaScript the question is a native dialog; without, the button
 * posts without `confirm=yes` and the action answers with the page in `confirming` state, the
 * question at the top and focused (docs/decisions/023-errors-where-the-eye-is.md). Only the
 * post with `confirm=yes` does it.
 *
 * A whole form can be the trigger (saving a record that switches it off): its action answers
 * with the question and the form's own `posted` fields, sent again with the confirmation; with
 * JavaScript that answer opens the dialog, without it the page shows the question.
 */
export function ConfirmAction({
  intent,
  fields,
  trigger,
  title,
  confirmLabel,
  busyLabel,
  keepLabel,
  confirming,
  children,
  triggerClassName,
  triggerFields,
  triggerVariant = "danger",
  triggerSize,
  triggerLabel,
  posted,
}: {
  intent: string;
  /** hidden fields the action needs (the record's id on a list page) */
  fields?: Record<string, string>;
  trigger: ReactNode;
  title: string;
  confirmLabel: string;
  busyLabel: string;
  keepLabel: string;
  /** the action asked for confirmation (the page without JavaScript) */
  confirming: boolean;
  /**
   * The question's words. A function is given what was typed before the question (a
   * revocation's reason): in the dialog, what the trigger's form held when pressed; on the page
   * without JavaScript, the posted `fields`. So both say the same thing.
   */
  children: ReactNode | ((typed: Record<string, string>) => ReactNode);
  triggerClassName?: string;
  /** fields typed before the question (a reason): they travel to the confirmed post */
  triggerFields?: ReactNode;
  triggerVariant?: "danger" | "secondary";
  triggerSize?: "sm" | "md";
  /** the trigger's accessible name when its text is short ("Deactivate") */
  triggerLabel?: string;
  /** the fields of a whole form the action asked about, in order (lists keep every value) */
  posted?: ReadonlyArray<readonly [string, string]>;
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  const location = useLocation();
  // what the trigger's form held when pressed (a typed reason), sent again with the confirmation
  const [carried, setCarried] = useState<Record<string, string>>({});
  const words = (typed: Record<string, string>) => (typeof children === "function" ? children(typed) : children);
  // the action asked (a whole form was the trigger): with JavaScript the question is the dialog
  useEffect(() => {
    if (confirming && hydrated && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [confirming, hydrated]);
  // the confirmed post's answer (a redirect back to this page, or its errors) is a new location:
  // the question is closed, where the dialog left open after a refund that left more to refund
  // hid the page and its message; an answer asking the question again keeps it open
  useEffect(() => {
    if (!confirming && dialog.current?.open) dialog.current.close();
  }, [location.key, confirming]);
  // with JavaScript the question is a dialog: opened by the trigger, or by the action's answer
  const questionDialog = hydrated ? (
    <dialog ref={dialog} aria-labelledby={titleId} className="w-[min(32rem,calc(100vw-2rem))] rounded-lg p-5 text-left shadow-xl backdrop:bg-steel-950/60">
      <ConfirmPanel
        titleId={titleId}
        title={title}
        intent={intent}
        fields={{ ...carried, ...fields }}
        posted={posted}
        confirmLabel={confirmLabel}
        busyLabel={busyLabel}
        keep={
          <button type="button" className={buttonClasses("secondary")} onClick={() => dialog.current?.close()}>
            {keepLabel}
          </button>
        }
      >
        {words({ ...carried, ...fields })}
      </ConfirmPanel>
    </dialog>
  ) : null;
  if (confirming && hydrated) return questionDialog;
  if (confirming) {
    return (
      <section
        aria-labelledby={titleId}
        tabIndex={-1}
        autoFocus
        data-confirmation=""
        className="rounded-md border-2 border-red-700 bg-red-50 p-4 focus:outline-none focus:ring-4 focus:ring-red-300"
      >
        <ConfirmPanel
          titleId={titleId}
          title={title}
          intent={intent}
          fields={fields}
          posted={posted}
          confirmLabel={confirmLabel}
          busyLabel={busyLabel}
          keep={
            <Link to={`${location.pathname}${location.search}`} preventScrollReset className={buttonClasses("secondary")}>
              {keepLabel}
            </Link>
          }
        >
          {words(fields ?? {})}
        </ConfirmPanel>
      </section>
    );
  }
  return (
    <>
      <Form method="post" noValidate className={triggerClassName}>
        {Object.entries(fields ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {triggerFields}
        <SubmitButton
          intent={intent}
          variant={triggerVariant}
          size={triggerSize}
          aria-label={triggerLabel}
          busyLabel={busyLabel}
          onClick={(event) => {
            const form = event.currentTarget.form;
            // a field left out goes to the action, which says so beside it before anything is asked
            if (!hydrated || !dialog.current || (form && !form.checkValidity())) return;
            event.preventDefault();
            const typed: Record<string, string> = {};
            if (form) for (const [name, value] of new FormData(form)) if (typeof value === "string" && name !== "intent") typed[name] = value;
            setCarried(typed);
            dialog.current.showModal();
          }}
        >
          {trigger}
        </SubmitButton>
      </Form>
      {questionDialog}
    </>
  );
}
