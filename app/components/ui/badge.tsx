import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

export type BadgeTone = "grey" | "blue" | "green" | "yellow" | "red" | "amber" | "navy" | "purple";

/** One class per tone in app/tailwind.css (`.badge-grey`…), like the buttons: lists repeat badges. */
const tones: Record<BadgeTone, string> = {
  grey: "badge-grey",
  blue: "badge-blue",
  green: "badge-green",
  yellow: "badge-yellow",
  red: "badge-red",
  amber: "badge-amber",
  navy: "badge-navy",
  purple: "badge-purple",
};

export function Badge({ tone = "grey", children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return <span className={cn("badge", tones[tone], className)}>{children}</span>;
}
