import { Link } from "@remix-run/react";
import { buttonClasses } from "~/components/ui";
import { cn } from "~/utils/cn";
import { MARKETING_TIERS } from "./content";
import { CheckIcon, ClockIcon } from "./icons";

/** The three-tier certification path with hours, price and what each tier covers. */
export function TierCards() {
  return (
    <section aria-labelledby="tiers-title" className="bg-steel-50 py-16 sm:py-20">
      <div className="mx-auto max-w-6xl px-4">
        <div className="max-w-2xl">
          <p className="text-sm font-bold uppercase tracking-wider text-hivis-700">Certification path</p>
          <h2 id="tiers-title" className="mt-2 text-3xl font-bold tracking-tight text-steel-900 sm:text-4xl">
            Three tiers. One clear path to the top.
          </h2>
          <p className="mt-3 text-steel-700">Start where your experience is and move up as your licences grow.</p>
        </div>
        <ul className="mt-10 grid gap-6 lg:grid-cols-3">
          {MARKETING_TIERS.map((t) => (
            <li
              key={t.tier}
              className={cn(
                "relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm sm:p-8",
                t.featured ? "border-hivis-500 ring-2 ring-hivis-500" : "border-steel-200",
              )}
            >
              {t.featured ? (
                <p className="absolute -top-3 left-6 rounded-full bg-hivis-500 px-3 py-0.5 text-xs font-bold uppercase tracking-wide text-steel-950">
                  Most popular
                </p>
              ) : null}
              <h3 id={`tier-${t.tier}`} className="text-sm font-bold uppercase tracking-wider text-hivis-700">
                {t.label}
                <span className="mt-1 block text-2xl font-bold normal-case tracking-tight text-steel-900">{t.title}</span>
              </h3>
              <p className="mt-2 text-sm text-steel-600">{t.summary}</p>
              <p className="mt-6 flex items-baseline gap-2">
                <span className="text-4xl font-extrabold tracking-tight text-steel-900">{t.price}</span>
                <span className="text-sm text-steel-600">per tier</span>
              </p>
              <p className="mt-1 inline-flex items-center gap-1.5 text-sm font-semibold text-steel-700">
                <ClockIcon />
                {t.hours} hours
              </p>
              <ul className="mt-6 flex-1 space-y-3 border-t border-steel-100 pt-6">
                {t.features.map((f) => (
                  <li key={f} className="flex gap-3 text-sm text-steel-800">
                    <CheckIcon className="h-5 w-5 shrink-0 text-green-700" />
                    {f}
                  </li>
                ))}
              </ul>
              <Link to="/register" className={cn(buttonClasses(t.featured ? "primary" : "secondary", "lg"), "mt-8 w-full")} aria-describedby={`tier-${t.tier}`}>
                Start Training
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
