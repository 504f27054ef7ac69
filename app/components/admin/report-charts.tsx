import type { Tier } from "#db/schema";
import { TIER_TITLES } from "~/components/status-badges";
import { TableScroll } from "~/components/ui";

/**
 * The reports page's charts: plain SVG rendered on the server, so they read without
 * JavaScript, each with its figures as a table beside it (the text equivalent for screen
 * readers and anyone who prefers numbers).
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const ENROLLMENT_COLOUR = "#1f3a5f";
const COMPLETION_COLOUR = "#b45309";

/** A round top for the axis: 1, 2, 5 times a power of ten at or above the largest value. */
function axisMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * power).find((v) => v >= max)!;
}

function Legend() {
  return (
    <p className="mt-2 flex gap-4 text-xs text-steel-700" aria-hidden="true">
      <span className="flex items-center gap-1">
        <span className="inline-block h-3 w-3" style={{ background: ENROLLMENT_COLOUR }} /> Enrolments
      </span>
      <span className="flex items-center gap-1">
        <span className="inline-block h-3 w-3" style={{ background: COMPLETION_COLOUR }} /> Completions
      </span>
    </p>
  );
}

export function MonthlyChart({ year, months }: { year: number; months: Array<{ month: number; enrollments: number; completions: number }> }) {
  const width = 640;
  const height = 220;
  const pad = { left: 36, right: 8, top: 12, bottom: 28 };
  const top = axisMax(Math.max(...months.map((m) => Math.max(m.enrollments, m.completions))));
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const slot = plotW / 12;
  const bar = slot * 0.35;
  const y = (v: number) => pad.top + plotH - (v / top) * plotH;
  const totalEnrollments = months.reduce((s, m) => s + m.enrollments, 0);
  const totalCompletions = months.reduce((s, m) => s + m.completions, 0);
  return (
    <figure>
      <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" role="img" aria-labelledby="monthly-title">
        <title id="monthly-title">{`Enrolments and completions per month, ${year}: ${totalEnrollments} enrolments and ${totalCompletions} completions in all`}</title>
        {[0, top / 2, top].map((v) => (
          <g key={v}>
            <line x1={pad.left} x2={width - pad.right} y1={y(v)} y2={y(v)} stroke="#d6dde6" />
            <text x={pad.left - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill="#475569">
              {v}
            </text>
          </g>
        ))}
        {months.map((m, i) => {
          const x = pad.left + i * slot + slot * 0.15;
          return (
            <g key={m.month}>
              <rect x={x} y={y(m.enrollments)} width={bar} height={plotH + pad.top - y(m.enrollments)} fill={ENROLLMENT_COLOUR} />
              <rect x={x + bar} y={y(m.completions)} width={bar} height={plotH + pad.top - y(m.completions)} fill={COMPLETION_COLOUR} />
              <text x={pad.left + i * slot + slot / 2} y={height - 10} textAnchor="middle" fontSize="11" fill="#475569">
                {MONTHS[i]}
              </text>
            </g>
          );
        })}
      </svg>
      <Legend />
      <figcaption className="mt-3">
        <TableScroll label={`Enrolments and completions per month, ${year}`}>
          <table className="w-full text-left text-xs tabular-nums">
            <caption className="mb-1 text-left text-sm font-semibold text-steel-800">Enrolments and completions per month, {year}</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-2">
                  Month
                </th>
                {MONTHS.map((name) => (
                  <th key={name} scope="col" className="px-1 py-1 text-right">
                    {name}
                  </th>
                ))}
                <th scope="col" className="px-1 py-1 text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {(
                [
                  ["Enrolments", "enrollments", totalEnrollments],
                  ["Completions", "completions", totalCompletions],
                ] as const
              ).map(([label, key, total]) => (
                <tr key={key}>
                  <th scope="row" className="py-1 pr-2 font-semibold">
                    {label}
                  </th>
                  {months.map((m) => (
                    <td key={m.month} className="px-1 py-1 text-right">
                      {m[key]}
                    </td>
                  ))}
                  <td className="px-1 py-1 text-right font-semibold">{total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </figcaption>
    </figure>
  );
}

export function TierChart({ year, tiers }: { year: number; tiers: Array<{ tier: Tier; completions: number }> }) {
  // narrower than the monthly chart: scaled down to a phone's width, its words stay readable
  const width = 400;
  // each tier's name sits on its own line above its bar, so a long name is never cut by the
  // bar beside it, however narrow the screen that scales the chart down
  const rowH = 48;
  const height = tiers.length * rowH + 4;
  const top = axisMax(Math.max(...tiers.map((t) => t.completions)));
  const plotW = width - 48;
  return (
    <figure>
      <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full max-w-xl" role="img" aria-labelledby="tier-title">
        <title id="tier-title">{`Completions per tier, ${year}: ${tiers.map((t) => `${TIER_TITLES[t.tier]} ${t.completions}`).join(", ")}`}</title>
        {tiers.map((t, i) => {
          const w = (t.completions / top) * plotW;
          const yTop = 4 + i * rowH;
          return (
            <g key={t.tier}>
              <text x={0} y={yTop + 14} fontSize="14" fill="#1e293b">
                {TIER_TITLES[t.tier]}
              </text>
              <rect x={0} y={yTop + 20} width={w} height={rowH - 28} fill={COMPLETION_COLOUR} />
              <text x={w + 6} y={yTop + 35} fontSize="14" fill="#1e293b">
                {t.completions}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-3">
        <table className="text-left text-sm tabular-nums">
          <caption className="mb-1 text-left text-sm font-semibold text-steel-800">Completions per tier, {year}</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-6">
                Tier
              </th>
              <th scope="col" className="py-1 text-right">
                Completions
              </th>
            </tr>
          </thead>
          <tbody>
            {tiers.map((t) => (
              <tr key={t.tier}>
                <th scope="row" className="py-1 pr-6 font-normal">
                  {TIER_TITLES[t.tier]}
                </th>
                <td className="py-1 text-right">{t.completions}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
