import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

/**
 * The box a wide table scrolls sideways in on a narrow screen, so the page itself never does.
 * It is a labelled region in the Tab order, so a keyboard can scroll it and a screen reader
 * names it.
 */
export function TableScroll({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={cn("table-scroll", className)}>
      {children}
    </div>
  );
}
