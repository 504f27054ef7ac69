import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirectDocument, requireRole, getDb, HRW_REPORT_LIMIT, listHrwAssessments, type HrwAssessment } from "~/routes/admin+/reports_.hrw.server";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { PartsList, StageBadge } from "~/components/hrw/hrw-ui";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { Alert, Button, EmptyState, SelectField, TextField, TitledCard, TableScroll, ErrorSummary } from "~/components/ui";
import { readAuditPackQuery, readHrwPeriod } from "~/schemas/hrw";
import { HRW_STATES, hrwDate } from "~/schemas/hrw-codes";
import { clockTime } from "~/utils/format";
import { organisationYear } from "~/utils/organisation-calendar";

/**
 * The regulator's audit: every high-risk work assessment in a period (by assessment date) with
 * who assessed whom, where, on which plant, under which accreditation, the parts and the NSA.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const url = new URL(request.url);
  const thisYear = organisationYear();
  const none = { assessments: [] as HrwAssessment[], limited: false, csv: "", thisYear };
  // the pack's old address, and where the zip sends a state or year that does not read: a good
  // choice is the resource route's, fetched as a document; a bad one is shown at its field
  if (url.searchParams.has("state") || url.searchParams.has("year")) {
    const pack = readAuditPackQuery(url);
    if (pack.success) return redirectDocument(`/admin/reports/hrw.zip?${new URLSearchParams({ state: pack.data.state, year: String(pack.data.year) })}`);
    const asked = { state: url.searchParams.get("state") ?? "", year: url.searchParams.get("year") ?? "" };
    return data({ ...none, from: "", to: "", error: pack.message, fieldErrors: {}, pack: { ...asked, fieldErrors: pack.fieldErrors } }, { status: 400 });
  }
  const period = readHrwPeriod(url);
  if (!period.success) {
    const asked = { from: url.searchParams.get("from") ?? "", to: url.searchParams.get("to") ?? "" };
    return data({ ...none, ...asked, error: period.message, fieldErrors: period.fieldErrors, pack: null }, { status: 400 });
  }
  const assessments = await listHrwAssessments(getDb(), period.data);
  const search = new URLSearchParams();
  if (period.data.from) search.set("from", period.data.from);
  if (period.data.to) search.set("to", period.data.to);
  return {
    from: period.data.from ?? "",
    to: period.data.to ?? "",
    error: null,
    fieldErrors: {} as Record<string, string>,
    pack: null,
    assessments,
    limited: assessments.length >= HRW_REPORT_LIMIT,
    csv: `/admin/reports/hrw.csv${search.size ? `?${search}` : ""}`,
    thisYear,
  };
}

export default function HrwAuditReport() {
  const { from, to, error, fieldErrors, pack, assessments, limited, csv, thisYear } = useLoaderData<typeof loader>();
  const years = [thisYear - 1, thisYear, thisYear - 2].map((y) => ({ value: String(y), label: String(y) }));
  const packErrors: Record<string, string | undefined> = pack?.fieldErrors ?? {};
  const periodErrors: Record<string, string | undefined> = fieldErrors;
  return (
    <>
      <PageTitle
        title="HRW assessment audit"
        subtitle={
          <Link to="/admin/reports" className="underline">
            Back to reports
          </Link>
        }
        actions={
          csv ? (
            <a href={csv} className="rounded-md bg-hivis-500 px-4 py-2 text-sm font-semibold text-steel-900" download>
              Download CSV
            </a>
          ) : null
        }
      />
      <TitledCard title="Yearly audit pack" className="mb-6">
        <p className="mb-3 text-sm text-steel-700">
          One state&apos;s assessments of a calendar year with their assessors, notices, NSAs, candidate checks and part results, as CSV files and a one-page
          summary in a zip.
        </p>
        <Form method="get" action="/admin/reports/hrw.zip" reloadDocument className="grid gap-3 sm:grid-cols-3 sm:items-end">
          <SelectField
            label="State"
            name="state"
            defaultValue={pack?.state && pack.state in HRW_STATES ? pack.state : "VIC"}
            error={packErrors.state}
            options={Object.entries(HRW_STATES).map(([code, regulator]) => ({ value: code, label: `${code} (${regulator})` }))}
          />
          <SelectField label="Year" name="year" defaultValue={String(thisYear - 1)} error={packErrors.year} options={years} />
          <div>
            <Button type="submit">Download audit pack</Button>
          </div>
        </Form>
      </TitledCard>
      <TitledCard title="Period">
        <Form method="get" className="flex flex-wrap items-end gap-3">
          <TextField label="From" name="from" type="date" defaultValue={from} error={periodErrors.from} />
          <TextField label="To" name="to" type="date" defaultValue={to} error={periodErrors.to} />
          <Button type="submit" variant="secondary">
            Show
          </Button>
          <Link to="/admin/hrw/rules" className="ml-auto text-sm underline">
            High-risk work rules by state
          </Link>
        </Form>
      </TitledCard>
      <div className="mt-6">
        <ErrorSummary failure={error ? { error, fieldErrors: pack ? pack.fieldErrors : fieldErrors } : null} />
        {limited ? <Alert tone="info">The first {assessments.length} assessments of the period are shown; narrow the period to see the rest.</Alert> : null}
        {error ? null : assessments.length === 0 ? (
          <EmptyState title="No HRW assessments in this period" />
        ) : (
          <TableScroll label="High-risk work assessments" className="rounded-lg border border-steel-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">High-risk work assessments</caption>
              <thead className="bg-steel-50 text-steel-700">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Date
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Candidate
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Class
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Location and plant
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Assessor
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Parts
                  </th>
                  <th scope="col" className="px-3 py-2">
                    NSA
                  </th>
                </tr>
              </thead>
              <tbody>
                {assessments.map((a) => (
                  <tr key={a.id} className="border-t border-steel-100 align-top">
                    <td className="px-3 py-2">
                      {hrwDate(a.assessment_date)}, {clockTime(a.start_time)}
                    </td>
                    <th scope="row" className="px-3 py-2 font-semibold">
                      {a.candidate.full_name}
                    </th>
                    <td className="px-3 py-2">
                      {a.licence_class} ({a.state})
                    </td>
                    <td className="px-3 py-2">
                      {a.location.name}; {a.plant_description}, {a.plant_registration}
                    </td>
                    <td className="px-3 py-2">
                      {a.assessor.full_name}
                      {a.accreditation_number ? ` (${a.accreditation_number})` : ""}
                    </td>
                    <td className="px-3 py-2">
                      <PartsList parts={a.parts} />
                    </td>
                    <td className="px-3 py-2">{a.nsa_number ? `${a.nsa_number}, ${hrwDate(a.nsa_date!)}` : <StageBadge stage={a.stage} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "HRW assessment audit | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="HRW assessment audit" message="Failed to load the audit report" />;
}
