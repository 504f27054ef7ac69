import { Link, useActionData, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, type ReactNode } from "react";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Whether all of `element` shows, in the window and in the dialog's scrolling body. */
function inSight(element: HTMLElement, frame: HTMLElement | null): boolean {
  const box = element.getBoundingClientRect();
  const view = frame?.getBoundingClientRect();
  const top = Math.max(0, view?.top ?? 0);
  const bottom = Math.min(window.innerHeight, view?.bottom ?? window.innerHeight);
  return box.top >= top && box.bottom <= bottom;
}

/**
 * A modal that is a route: rendered open over its parent page, closed by a link back, so it
 * opens, works and can be shared as a URL without JavaScript. With JavaScript it takes focus
 * when it opens, keeps Tab inside, and closes on Escape. After a failed save it brings the
 * first field in error into view and focuses it: the form is sent from its end, and a long
 * dialog would otherwise stay scrolled there with the error out of sight.
 */
export function Modal({ title, closeTo, children, size = "md" }: { title: string; closeTo: string; children: ReactNode; size?: "md" | "lg" }) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const body = useRef<HTMLDivElement>(null);
  const answer = useActionData();
  // the router hands out a new navigate after each submission: reading it from a ref keeps the
  // effect (and its focus handling) from running again and taking focus from an error summary
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement as HTMLElement | null;
    if (!dialog.contains(document.activeElement)) dialog.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        navigateRef.current(closeTo, { preventScrollReset: true });
        return;
      }
      if (event.key !== "Tab") return;
      const items = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items[items.length - 1]!;
      if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      if (previous && document.contains(previous)) previous.focus();
    };
  }, [closeTo]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !answer) return;
    // A form in the dialog that moved focus itself (to a summary of its errors) keeps it; focus
    // still on the button that sent the form, or lost with it, moves to the first error.
    const active = document.activeElement;
    if (active && dialog.contains(active) && !active.matches("button, dialog")) return;
    const invalid = dialog.querySelector<HTMLElement>('[aria-invalid="true"]');
    // A field already in sight is focused where it is: the page does not jump under the reader.
    if (invalid) invalid.focus({ preventScroll: inSight(invalid, body.current) });
    else dialog.querySelector('[role="alert"]')?.scrollIntoView({ block: "nearest" });
  }, [answer]);

  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-steel-950/60 p-3 sm:items-center sm:p-6">
      <dialog
        ref={ref}
        open
        aria-modal="true"
        aria-labelledby={id}
        tabIndex={-1}
        className={`relative m-0 w-full ${size === "lg" ? "max-w-3xl" : "max-w-lg"} rounded-lg bg-white p-0 text-steel-900 shadow-xl focus:outline-none`}
      >
        <div className="flex items-center justify-between gap-4 border-b border-steel-100 px-5 py-4">
          <h2 id={id} className="text-lg font-bold">
            {title}
          </h2>
          <Link
            to={closeTo}
            preventScrollReset
            className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-md text-sm font-semibold text-steel-600 hover:bg-steel-100 sm:h-auto sm:w-auto sm:px-2 sm:py-1"
            aria-label={`Close ${title}`}
          >
            ✕
          </Link>
        </div>
        <div ref={body} className="max-h-[80vh] overflow-y-auto px-5 py-4">
          {children}
        </div>
      </dialog>
    </div>
  );
}
