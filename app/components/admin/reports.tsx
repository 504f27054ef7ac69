import { Form, Link, useLocation } from "@remix-run/react";
import type { ReadinessView } from "~/avetmiss/readiness.server";
import type { ComplianceCheck, EnrollmentStatistics } from "~/models/report.server";
import { StatusBadge, TIER_TITLES } from "~/components/status-badges";
import { Alert, Badge, buttonClasses, Pagination, TAP_LINK, TitledCard, TableScroll } from "~/components/ui";
import { AVETMISS_EXPORT_KEYS, AVETMISS_EXPORTS, noActivityMessage } from "~/schemas/avetmiss-exports-text";
import { organisationYear } from "~/utils/organisation-calendar";
import { formatDateTime } from "~/utils/format";

/**
 * The compliance report's cards (app/routes/admin+/reports.tsx): enrolments by status and tier,
 * the record checks, and a collection year's AVETMISS files with the readiness list.
 */

/** Enrolments by status and by tier. */
export function EnrollmentStatisticsCard({ statistics }: { statistics: EnrollmentStatistics }) {
  return (
    <TitledCard title="Enrolment Statistics">
      <h3 className="mb-2 text-sm font-bold uppercase tracking-wide text-steel-700">By status</h3>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        <div className="rounded-md bg-steel-800 p-3 text-white">
          <dt className="text-xs font-semibold text-steel-200">Total enrolments</dt>
          <dd className="text-2xl font-bold tabular-nums">{statistics.total.toLocaleString("en-AU")}</dd>
        </div>
        {statistics.byStatus.map((s) => (
          <div key={s.status} className="rounded-md bg-steel-50 p-3">
            <dt className="text-xs font-semibold text-steel-600">
              <StatusBadge status={s.status} />
            </dt>
            <dd className="mt-1 text-2xl font-bold tabular-nums text-steel-900">{s.count.toLocaleString("en-AU")}</dd>
          </div>
        ))}
      </dl>

      <h3 className="mb-2 mt-6 text-sm font-bold uppercase tracking-wide text-steel-700">By tier</h3>
      <TableScroll label="Enrolments by tier">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <caption className="sr-only">Enrolments by tier</caption>
          <thead className="bg-steel-50 text-xs uppercase tracking-wide text-steel-600">
            <tr>
              <th scope="col" className="px-3 py-2">
                Tier
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Total
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Active
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Completed
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Withdrawn
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Completion rate
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-steel-100 tabular-nums">
            {statistics.byTier.map((t) => (
              <tr key={t.tier}>
                <th scope="row" className="px-3 py-2 font-semibold text-steel-900">
                  {TIER_TITLES[t.tier]}
                </th>
                <td className="px-3 py-2 text-right">{t.total}</td>
                <td className="px-3 py-2 text-right">{t.active}</td>
                <td className="px-3 py-2 text-right">{t.completed}</td>
                <td className="px-3 py-2 text-right">{t.withdrawn}</td>
                <td className="px-3 py-2 text-right">{t.completion_rate}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </TitledCard>
  );
}

/** The record checks, each with its count and where to act. */
export function ComplianceOverviewCard({ checks }: { checks: ComplianceCheck[] }) {
  const attention = checks.filter((c) => !c.ok).length;
  return (
    <TitledCard
      title="Compliance Overview"
      className="mt-6"
      actions={
        <Badge tone={attention === 0 ? "green" : "amber"}>
          {attention === 0 ? "All checks OK" : `${attention} ${attention === 1 ? "check needs" : "checks need"} attention`}
        </Badge>
      }
    >
      <ul className="divide-y divide-steel-100">
        {checks.map((c) => (
          <li key={c.id} className="flex flex-wrap items-start justify-between gap-3 py-3 first:pt-0 last:pb-0">
            {/* a basis of its own: on a phone the figures wrap under the words, not the words one to a line */}
            <div className="min-w-0 flex-[1_1_15rem]">
              <p className="font-semibold text-steel-900">{c.label}</p>
              <p className="text-sm text-steel-600">{c.description}</p>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <span className="text-sm tabular-nums text-steel-800">
                {c.countCapped ? "more than " : ""}
                {c.count.toLocaleString("en-AU")} {c.count === 1 && !c.countCapped ? c.unit[0] : c.unit[1]}
              </span>
              <Badge tone={c.ok ? "green" : "amber"}>{c.ok ? "OK" : "Needs attention"}</Badge>
              <Link to={c.href} className="inline-flex min-h-11 items-center text-sm font-semibold text-hivis-800 underline-offset-4 hover:underline">
                View records<span className="sr-only"> for {c.label}</span>
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </TitledCard>
  );
}

/** A collection year: its downloads, its records per file and what to fix before lodging. */
export function AvetmissCard({ year, yearError, readiness }: { year: number; yearError: string | null; readiness: ReadinessView & { find: string } }) {
  const location = useLocation();
  return (
    <TitledCard title={`AVETMISS ${year}`} className="mt-6">
      <Form method="get" action="/admin/reports" className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="report-year" className="mb-1 block text-sm font-semibold text-steel-800">
            Collection year
          </label>
          <input
            id="report-year"
            name="year"
            inputMode="numeric"
            defaultValue={yearError ? "" : year}
            aria-invalid={yearError ? true : undefined}
            aria-describedby={yearError ? "report-year-error" : undefined}
            className="block w-32 rounded-md border border-steel-300 px-3 py-2 text-base sm:text-sm"
          />
        </div>
        <button type="submit" className={buttonClasses("secondary")}>
          Show year
        </button>
      </Form>
      {yearError ? (
        <div className="mt-3" id="report-year-error">
          <Alert>{yearError}</Alert>
        </div>
      ) : null}

      {readiness.active || readiness.checking ? (
        <>
          <h3 className="mb-2 mt-6 text-sm font-bold uppercase tracking-wide text-steel-700">Export AVETMISS</h3>
          <p className="text-sm text-steel-600">
            The ten NAT files of the National VET Provider Collection for {year}, fixed-width ASCII, ready for NCVER's validation software.
          </p>
          <form method="get" action="/admin/reports/avetmiss.zip" className="mt-3 flex flex-wrap items-end gap-3">
            <input type="hidden" name="year" value={year} />
            <button type="submit" className={buttonClasses("primary")}>
              Export AVETMISS {year} (zip)
            </button>
          </form>
          <ul className="mt-4 grid gap-3 sm:grid-cols-3">
            {AVETMISS_EXPORT_KEYS.map((key) => (
              <li key={key} className="rounded-md border border-steel-200 p-3">
                <a
                  href={`/admin/reports/avetmiss/${AVETMISS_EXPORTS[key].code}.txt?year=${year}`}
                  download
                  className={buttonClasses("secondary", "md", "w-full")}
                >
                  {AVETMISS_EXPORTS[key].label}
                </a>
                <p className="mt-2 text-xs text-steel-600">{AVETMISS_EXPORTS[key].description}</p>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <div className="mt-6" role="status">
          <Alert tone="info">{noActivityMessage(year)}</Alert>
        </div>
      )}

      {readiness.checking ? (
        <div className="mt-6" role="status">
          <Alert tone="info">
            {readiness.checking === "under way"
              ? `The records for ${year} are being checked for lodging. The counts and the list of what to fix appear here within a few minutes.`
              : `The records are checked for lodging for ${organisationYear()} and ${organisationYear() - 1}. ${year}'s files can still be downloaded above.`}
          </Alert>
        </div>
      ) : (
        <>
          {readiness.checkedAt ? (
            <p className="mt-6 text-sm text-steel-700">
              Checked {formatDateTime(readiness.checkedAt)}
              {readiness.stale ? ". Records have changed since; they are checked again within a few minutes." : "."}
            </p>
          ) : null}
          <h3 className="mb-2 mt-6 text-sm font-bold uppercase tracking-wide text-steel-700">Records per file</h3>
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5">
            {Object.entries(readiness.counts).map(([file, n]) => (
              <div key={file} className="rounded-md bg-steel-50 px-3 py-2">
                <dt className="font-mono text-xs text-steel-600">{file}</dt>
                <dd className="font-bold tabular-nums text-steel-900">{n}</dd>
              </div>
            ))}
          </dl>

          <h3 id="readiness-heading" className="mb-2 mt-6 text-sm font-bold uppercase tracking-wide text-steel-700">
            Readiness: {readiness.total === 0 ? "nothing to fix" : `${readiness.total.toLocaleString("en-AU")} to fix before lodging`}
          </h3>
          {readiness.total === 0 ? (
            <p className="text-sm text-steel-700">No record for {year} would be rejected by NCVER's validation for a missing or malformed value.</p>
          ) : (
            <>
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Problems to fix by kind, {year}</caption>
                <thead className="bg-steel-50 text-xs uppercase tracking-wide text-steel-600">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      File
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Problem
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Records
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-steel-100">
                  {readiness.groups.map((g) => (
                    <tr key={`${g.file}-${g.problem}`}>
                      <td className="px-3 py-2 font-mono text-xs text-steel-600">{g.file}</td>
                      <th scope="row" className="px-3 py-2 font-semibold text-steel-900">
                        {g.problem}
                      </th>
                      <td className="px-3 py-2 text-right tabular-nums">{g.count.toLocaleString("en-AU")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>

              <Form method="get" action="/admin/reports" className="mt-4 flex flex-wrap items-end gap-3" role="search" aria-label="Readiness records">
                <input type="hidden" name="year" value={year} />
                <div>
                  <label htmlFor="readiness-find" className="mb-1 block text-sm font-semibold text-steel-800">
                    Find a record
                  </label>
                  <input
                    id="readiness-find"
                    name="find"
                    type="search"
                    defaultValue={readiness.find}
                    placeholder="Name, student no., unit code"
                    className="block w-72 max-w-full rounded-md border border-steel-300 px-3 py-2 text-base sm:text-sm"
                  />
                </div>
                <button type="submit" className={buttonClasses("secondary")}>
                  Find
                </button>
              </Form>

              {readiness.issues.length === 0 ? (
                <p className="mt-3 text-sm text-steel-700">No record to fix matches &ldquo;{readiness.find}&rdquo;.</p>
              ) : (
                <ul aria-labelledby="readiness-heading" className="mt-3 divide-y divide-steel-100 rounded-md border border-amber-200">
                  {readiness.issues.map((issue, i) => (
                    <li key={`${issue.file}-${i}`} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                      <span>
                        <span className="font-mono text-xs text-steel-600">{issue.file}</span>{" "}
                        <span className="font-semibold text-steel-900">{issue.record}</span> <span className="text-steel-600">({issue.field})</span>:{" "}
                        {issue.problem}
                      </span>
                      <Link to={issue.href} className={`${TAP_LINK} font-semibold text-hivis-800 underline-offset-4 hover:underline`}>
                        Fix
                        <span className="sr-only">
                          {" "}
                          {issue.problem.toLowerCase()} for {issue.record}
                        </span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
              {readiness.matching > 0 ? (
                <Pagination
                  label="Records to fix"
                  one="record to fix"
                  page={readiness.page}
                  pageCount={readiness.pageCount}
                  pageSize={readiness.pageSize}
                  total={readiness.matching}
                  pathname={location.pathname}
                  search={location.search}
                />
              ) : null}
            </>
          )}
        </>
      )}
    </TitledCard>
  );
}
