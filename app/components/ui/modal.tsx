import { Link } from "@remix-run/react";
import { useId, type ReactNode } from "react";

/**
 * A modal that is a route: rendered open over its parent page, closed by a link back, so it
 * opens, works and can be shared as a URL without JavaScript.
 */
export function Modal({
  title,
  closeTo,
  children,
  size = "md",
}: {
  title: string;
  closeTo: string;
  children: ReactNode;
  size?: "md" | "lg";
}) {
  const id = useId();
  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-steel-950/60 p-3 sm:items-center sm:p-6">
      <dialog
        open
        aria-modal="true"
        aria-labelledby={id}
        className={`relative m-0 w-full ${size === "lg" ? "max-w-3xl" : "max-w-lg"} rounded-lg bg-white p-0 text-steel-900 shadow-xl`}
      >
        <div className="flex items-center justify-between gap-4 border-b border-steel-100 px-5 py-4">
          <h2 id={id} className="text-lg font-bold">
            {title}
          </h2>
          <Link
            to={closeTo}
            preventScrollReset
            className="rounded-md px-2 py-1 text-sm font-semibold text-steel-600 hover:bg-steel-100"
            aria-label={`Close ${title}`}
          >
            ✕
          </Link>
        </div>
        <div className="max-h-[80vh] overflow-y-auto px-5 py-4">{children}</div>
      </dialog>
    </div>
  );
}
