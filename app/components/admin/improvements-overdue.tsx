import { Link } from "@remix-run/react";
import { formatDate, plural } from "~/utils/format";

/** The dashboard's line on improvement actions past their due day (the most overdue first), with the way to the register. */
export function ImprovementsOverdue({
  count,
  actions,
}: {
  count: number;
  actions: { id: string; description: string; due_date: string; owner: { full_name: string } }[];
}) {
  if (count === 0) return null;
  return (
    <section aria-labelledby="improvements-overdue" className="mb-6 rounded-xl border border-red-300 bg-red-50 p-4">
      <h2 id="improvements-overdue" className="text-base font-bold text-steel-900">
        Improvement actions overdue: {count}
      </h2>
      <ul className="mt-2 space-y-1 text-sm text-steel-800">
        {actions.map((a) => (
          <li key={a.id}>
            <Link to={`/admin/improvements/${a.id}`} className="font-semibold underline underline-offset-4">
              {a.description.length > 80 ? `${a.description.slice(0, 77)}...` : a.description}
            </Link>
            {`: due ${formatDate(a.due_date)}, ${a.owner.full_name}`}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm">
        <Link to="/admin/improvements?overdue=1" className="inline-flex min-h-11 items-center font-semibold text-hivis-800 underline underline-offset-4">
          See {plural(count, "overdue action")}
        </Link>
      </p>
    </section>
  );
}
