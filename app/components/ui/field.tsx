import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { cn } from "~/utils/cn";

const control =
  "block w-full rounded-md border bg-white px-3 py-2 text-base text-steel-900 shadow-sm placeholder:text-steel-400 focus:border-hivis-500 focus:outline-none focus:ring-2 focus:ring-hivis-500/40 disabled:bg-steel-100 sm:text-sm";

function describedBy(hintId: string, errorId: string, hint?: ReactNode, error?: string | null) {
  return [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
}

type Common = { label: ReactNode; error?: string | null; hint?: ReactNode; className?: string };

/** The id of a field (its name, unless given) and the attributes that tie its control to its hint and error. */
function useFieldControl(id: string | undefined, name: string | undefined, error?: string | null, hint?: ReactNode) {
  const auto = useId();
  // a field in error is found by its name (the error summary links to `#<name>`); one without
  // keeps a unique id, since a page may hold several forms with a field of the same name
  const fieldId = id ?? (error && name ? name : auto);
  const tied = { "aria-invalid": error ? true : undefined, "aria-describedby": describedBy(`${fieldId}-hint`, `${fieldId}-error`, hint, error) };
  return { fieldId, tied, className: cn(control, error ? "border-red-500" : "border-steel-300") };
}

function Frame({ id, label, error, hint, className, children }: Common & { id: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-steel-800">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-steel-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input whose error and hint are tied to it for assistive technology. */
export function TextField({ label, error, hint, className, id, ...props }: Common & InputHTMLAttributes<HTMLInputElement>) {
  const { fieldId, tied, className: controlClass } = useFieldControl(id, props.name, error, hint);
  return (
    <Frame id={fieldId} label={label} error={error} hint={hint} className={className}>
      <input id={fieldId} className={controlClass} {...tied} {...props} />
    </Frame>
  );
}

export function TextAreaField({ label, error, hint, className, id, ...props }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { fieldId, tied, className: controlClass } = useFieldControl(id, props.name, error, hint);
  return (
    <Frame id={fieldId} label={label} error={error} hint={hint} className={className}>
      <textarea id={fieldId} className={controlClass} {...tied} {...props} />
    </Frame>
  );
}

export function SelectField({
  label,
  error,
  hint,
  className,
  id,
  options,
  placeholder,
  ...props
}: Common &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: Array<{ value: string; label: string }>;
    /** a first, empty choice: nothing is chosen until the reader chooses */ placeholder?: string;
  }) {
  const { fieldId, tied, className: controlClass } = useFieldControl(id, props.name, error, hint);
  // A list with no empty first choice always has one chosen, so `required` asks nothing of the
  // browser, and HTML allows it only on a list that starts empty: such a list says it is
  // required to assistive technology alone.
  const { required, ...rest } = props;
  const neverEmpty = placeholder === undefined && options.length > 0 && options[0].value !== "";
  return (
    <Frame id={fieldId} label={label} error={error} hint={hint} className={className}>
      <select
        id={fieldId}
        className={controlClass}
        {...tied}
        {...rest}
        required={neverEmpty ? undefined : required}
        aria-required={neverEmpty && required ? true : rest["aria-required"]}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export function CheckboxField({ label, error, hint, className, id, ...props }: Common & InputHTMLAttributes<HTMLInputElement>) {
  // one box of a group shares its name with the others: only a lone box is found by its name
  const { fieldId, tied } = useFieldControl(id, props.value === undefined ? props.name : undefined, error, hint);
  return (
    <div className={className}>
      <div className="flex items-center gap-3">
        <input
          id={fieldId}
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0 rounded border-steel-400 text-hivis-600 focus:ring-hivis-500"
          {...tied}
          {...props}
        />
        {/* a label naming a file or an address has no spaces to wrap at: it breaks anywhere rather than widen a phone's page */}
        <label htmlFor={fieldId} className="min-w-0 text-sm text-steel-800 [overflow-wrap:anywhere]">
          {label}
        </label>
      </div>
      {hint ? (
        <p id={`${fieldId}-hint`} className="ml-8 mt-1 text-xs text-steel-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${fieldId}-error`} className="ml-8 mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
