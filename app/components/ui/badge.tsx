import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

export type BadgeTone = "grey" | "blue" | "green" | "yellow" | "red" | "amber" | "navy" | "purple";

const tones: Record<BadgeTone, string> = {
  grey: "bg-steel-100 text-steel-700 ring-steel-200",
  blue: "bg-blue-50 text-blue-800 ring-blue-200",
  green: "bg-green-50 text-green-800 ring-green-200",
  yellow: "bg-yellow-50 text-yellow-900 ring-yellow-200",
  red: "bg-red-50 text-red-800 ring-red-200",
  amber: "bg-hivis-50 text-hivis-800 ring-hivis-200",
  navy: "bg-steel-800 text-white ring-steel-800",
  purple: "bg-purple-50 text-purple-800 ring-purple-200",
};

export function Badge({ tone = "grey", children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={cn("inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset", tones[tone], className)}>
      {children}
    </span>
  );
}
