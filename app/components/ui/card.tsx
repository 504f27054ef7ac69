import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "~/utils/cn";

export function Card({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return <section className={cn("rounded-lg border border-steel-200 bg-white shadow-sm", className)} {...props} />;
}

/** A card with a heading row; `level` keeps the page's heading order right. */
export function TitledCard({
  title,
  level = 2,
  actions,
  children,
  className,
}: {
  title: ReactNode;
  level?: 2 | 3;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const H = level === 2 ? "h2" : "h3";
  return (
    <Card className={className}>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-steel-100 px-4 py-3 sm:px-5">
        <H className="text-base font-semibold text-steel-900">{title}</H>
        {actions}
      </div>
      <div className="p-4 sm:p-5">{children}</div>
    </Card>
  );
}

export function StatCard({
  label,
  value,
  hint,
  tone = "steel",
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  tone?: "steel" | "hivis" | "green" | "blue";
}) {
  const tones = {
    steel: "border-l-steel-600",
    hivis: "border-l-hivis-500",
    green: "border-l-green-600",
    blue: "border-l-blue-600",
  };
  return (
    <Card className={cn("border-l-4 p-4", tones[tone])}>
      <p className="text-sm font-medium text-steel-600">{label}</p>
      <p className="mt-1 text-3xl font-bold tabular-nums text-steel-900">{value}</p>
      {hint ? <p className="mt-1 text-xs text-steel-500">{hint}</p> : null}
    </Card>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-md border border-dashed border-steel-300 bg-steel-50 px-4 py-8 text-center">
      <p className="font-semibold text-steel-800">{title}</p>
      {children ? <div className="mt-1 text-sm text-steel-600">{children}</div> : null}
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}
