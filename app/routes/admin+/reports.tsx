import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  data,
  requireRole,
  getDb,
  getReadiness,
  getReportCharts,
  getComplianceChecks,
  getEnrollmentStatistics,
  organisation,
  reportYear,
} from "~/routes/admin+/reports.server";
import { useLoaderData } from "@remix-run/react";
import { AvetmissCard, ComplianceOverviewCard, EnrollmentStatisticsCard } from "~/components/admin/reports";
import { MonthlyChart, TierChart } from "~/components/admin/report-charts";
import { PageTitle } from "~/components/portal-shell";
import { TitledCard } from "~/components/ui";
import { readinessQuery } from "~/schemas/page-queries";
import { RouteError } from "~/components/route-error";
import { organisationYear } from "~/utils/organisation-calendar";

/**
 * The compliance report. `?year=` chooses the AVETMISS collection year (default: this year)
 * for the readiness list, the record counts, the charts and the downloads; a year that is
 * not four digits shows its message (status 400) over this year's figures. The readiness list
 * comes as a summary by kind of problem and one page of records (`?find=` and `?page=`).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  const asked = url.searchParams.has("year") ? reportYear(url) : null;
  const year = asked?.year ?? organisationYear();
  const db = getDb();
  const query = readinessQuery.parse({ find: url.searchParams.get("find") ?? "", page: url.searchParams.get("page") ?? 1 });
  const [statistics, checks, charts, report] = await Promise.all([
    getEnrollmentStatistics(db),
    getComplianceChecks(db),
    getReportCharts(db, year),
    // the readiness list is the export's checker run over the year: here for a small
    // organisation, by the runner for a large one (avetmiss/readiness.server.ts)
    getReadiness(db, year, organisation(), query),
  ]);
  const yearError = asked?.error ?? null;
  const readiness = { ...report, find: query.find };
  return data({ statistics, checks, charts, year, yearError, readiness }, { status: yearError ? 400 : 200 });
}

export default function Reports() {
  const { statistics, checks, charts, year, yearError, readiness } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle title="ASQA Compliance Reports" subtitle="Enrolment statistics, record checks and AVETMISS reporting" />

      <EnrollmentStatisticsCard statistics={statistics} />

      <ComplianceOverviewCard checks={checks} />

      <AvetmissCard year={year} yearError={yearError} readiness={readiness} />

      <TitledCard title={`Activity in ${year}`} className="mt-6">
        <h3 className="mb-2 text-sm font-bold uppercase tracking-wide text-steel-700">Enrolments and completions per month</h3>
        <MonthlyChart year={charts.year} months={charts.months} />
        <h3 className="mb-2 mt-6 text-sm font-bold uppercase tracking-wide text-steel-700">Completions per tier</h3>
        <TierChart year={charts.year} tiers={charts.completionsByTier} />
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "ASQA Compliance Reports | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="ASQA Compliance Reports" message="Failed to load reports" />;
}
