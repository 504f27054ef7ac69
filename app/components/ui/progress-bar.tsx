import { cn } from "~/utils/cn";

/** Colour by how far along: 80+ green, 50+ blue, 25+ yellow, else grey. */
export function progressColour(value: number): string {
  if (value >= 80) return "bg-green-600";
  if (value >= 50) return "bg-blue-600";
  if (value >= 25) return "bg-yellow-500";
  return "bg-steel-400";
}

export function ProgressBar({ value, label }: { value: number; label: string }) {
  const pct = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className="flex items-center gap-3">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
        className="h-2.5 flex-1 overflow-hidden rounded-full bg-steel-100"
      >
        <div className={cn("h-full rounded-full", progressColour(pct))} style={{ width: `${pct}%` }} />
      </div>
      <span className="w-10 text-right text-sm font-semibold tabular-nums text-steel-700">{pct}%</span>
    </div>
  );
}
