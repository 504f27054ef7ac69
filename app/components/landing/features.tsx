import type { ReactNode } from "react";
import { FEATURES } from "./content";
import { BookIcon, HardHatIcon, LayersIcon, ShieldCheckIcon } from "./icons";

const ICONS: Record<(typeof FEATURES)[number]["key"], ReactNode> = {
  tiers: <LayersIcon />,
  trainers: <HardHatIcon />,
  learning: <BookIcon />,
  compliance: <ShieldCheckIcon />,
};

/** Why train with us: the four feature cards. */
export function Features() {
  return (
    <section aria-labelledby="features-title" className="bg-white py-16 sm:py-20">
      <div className="mx-auto max-w-6xl px-4">
        <p className="text-sm font-bold uppercase tracking-wider text-hivis-700">Why Summit</p>
        <h2 id="features-title" className="mt-2 max-w-2xl text-3xl font-bold tracking-tight text-steel-900 sm:text-4xl">
          Training built on the site, not just in the classroom
        </h2>
        <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((f) => (
            <li key={f.key} className="rounded-xl border border-steel-200 bg-steel-50 p-6 transition-shadow hover:shadow-md">
              <span className="flex h-12 w-12 items-center justify-center rounded-lg bg-steel-900 text-hivis-400">{ICONS[f.key]}</span>
              <h3 className="mt-4 text-lg font-bold text-steel-900">{f.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-steel-700">{f.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
