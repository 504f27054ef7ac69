import { STATS } from "./content";

/** The four headline figures of the landing page. */
export function StatsStrip() {
  return (
    <section aria-label="Our record" className="bg-hivis-500">
      <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-px bg-hivis-600/40 lg:grid-cols-4">
        {STATS.map((s) => (
          <div key={s.label} className="flex flex-col-reverse items-center bg-hivis-500 px-4 py-6 text-center">
            <dt className="mt-1 text-sm font-semibold uppercase tracking-wide text-steel-900">{s.label}</dt>
            <dd className="text-3xl font-extrabold tabular-nums text-steel-950 sm:text-4xl">{s.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
