import { Form, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { Button, Spinner } from "~/components/ui";

/**
 * A GET search form. Without JavaScript it is a plain form with a Search button; with it, the
 * list follows the box as you type (debounced, replacing the history entry). A new search
 * always starts from page 1, so no page field is sent.
 *
 * The search waiting to be sent is dropped once the person sends it themselves (Enter, Search)
 * or goes elsewhere: sent late, it would take them from the page they opened back to the list.
 */
export function LiveSearchForm({
  action,
  label,
  placeholder,
  value,
  children,
}: {
  action: string;
  label: string;
  placeholder?: string;
  value: string;
  /** further filters (hidden inputs or selects) submitted with the search */
  children?: ReactNode;
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const searching = navigation.state === "loading" && navigation.location.pathname === action;
  const inputId = `${action.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}-q`;

  // Keep the box in step with the URL (back/forward) unless the person is typing in it.
  useEffect(() => {
    const input = inputRef.current;
    if (input && document.activeElement !== input) input.value = value;
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  // a link followed while the search waited: the list is being left
  const leaving = navigation.state !== "idle" && navigation.location.pathname !== action;
  useEffect(() => {
    if (leaving) clearTimeout(timer.current);
  }, [leaving]);

  return (
    <Form
      method="get"
      action={action}
      role="search"
      className="flex flex-wrap items-end gap-2"
      onChange={(event) => {
        const form = event.currentTarget;
        clearTimeout(timer.current);
        timer.current = setTimeout(() => {
          if (form.isConnected) submit(form, { replace: true, preventScrollReset: true });
        }, 300);
      }}
      onSubmit={() => clearTimeout(timer.current)}
    >
      <div className="min-w-[14rem] flex-1">
        <label htmlFor={inputId} className="mb-1 block text-sm font-semibold text-steel-800">
          {label}
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="search"
          name="q"
          defaultValue={value}
          placeholder={placeholder}
          maxLength={100}
          autoComplete="off"
          className="block w-full rounded-md border border-steel-300 bg-white px-3 py-2 text-base text-steel-900 shadow-sm placeholder:text-steel-500 focus:border-hivis-500 focus:outline-none focus:ring-2 focus:ring-hivis-500/40 sm:text-sm"
        />
      </div>
      {children}
      <Button type="submit" variant="secondary">
        Search
      </Button>
      {searching ? <Spinner label="Searching" /> : null}
    </Form>
  );
}
