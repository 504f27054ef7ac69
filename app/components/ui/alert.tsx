import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

/** An inline message box; errors are announced at once, the rest politely. */
export function Alert({ tone = "error", children, id }: { tone?: "error" | "success" | "info"; children: ReactNode; id?: string }) {
  const styles = {
    error: "border-red-300 bg-red-50 text-red-900",
    success: "border-green-300 bg-green-50 text-green-900",
    info: "border-blue-300 bg-blue-50 text-blue-900",
  };
  return (
    <div id={id} role={tone === "error" ? "alert" : "status"} className={cn("rounded-md border px-4 py-3 text-sm font-medium", styles[tone])}>
      {children}
    </div>
  );
}

export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-steel-600">
      <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-steel-300 border-t-hivis-500" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
