import { Link } from "@remix-run/react";
import { Badge, TAP_LINK, TitledCard } from "~/components/ui";

/** The admin dashboard's "Standards" panel: each row a count and a link to where it is dealt with. */
export function StandardsPanel({
  rows,
  className,
}: {
  rows: Array<{ key: string; label: string; count: number; href: string; tone: "red" | "amber" | "green" }>;
  className?: string;
}) {
  return (
    <TitledCard title="Standards" className={className}>
      <ul className="space-y-2 text-sm">
        {rows.map((r) => (
          <li key={r.key} className="flex items-center justify-between gap-2">
            <Link to={r.href} className={`${TAP_LINK} underline`}>
              {r.label}
            </Link>
            <Badge tone={r.tone}>{r.count}</Badge>
          </li>
        ))}
      </ul>
    </TitledCard>
  );
}
