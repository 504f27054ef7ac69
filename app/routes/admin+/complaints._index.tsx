import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { queryObject, requireRole, getDb, listComplaints } from "~/routes/admin+/complaints._index.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { Badge, ErrorSummary, SelectField, TableScroll, TitledCard } from "~/components/ui";
import { complaintListQuery } from "~/schemas/complaint";
import { COMPLAINT_KINDS, COMPLAINT_STATUSES, KIND_LABELS, OUTCOME_LABELS, OVERDUE_LABELS, STATUS_LABELS } from "~/schemas/complaint-text";
import { formatDate } from "~/utils/format";

/**
 * The complaints and appeals register (administrators): filtered by kind, status and overdue,
 * overdue items first, with the CSV of the same filters. Trainers reach the same list at
 * /trainer/appeals (re-exported), holding only the appeals assigned to them to decide.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin", "trainer");
  const raw = queryObject(request);
  const parsed = complaintListQuery.safeParse(raw);
  const base = user.role === "admin" ? "/admin/complaints" : "/trainer/appeals";
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    return { items: [], base, role: user.role, values: raw, failure: { error: "Please correct the filters", fieldErrors, submittedAt: 0 }, query: "" };
  }
  const items = await listComplaints(getDb(), parsed.data, { id: user.id, role: user.role });
  return { items, base, role: user.role, values: raw, failure: null, query: new URL(request.url).search };
}

export default function ComplaintsRegister() {
  const { items, base, role, values, failure, query } = useLoaderData<typeof loader>();
  const admin = role === "admin";
  return (
    <>
      <PageTitle
        title={admin ? "Complaints and appeals" : "Appeals to decide"}
        subtitle={admin ? "Every complaint and appeal with its clocks; overdue items first" : "The appeals an administrator assigned to you"}
        actions={
          admin ? (
            <>
              <a href={`/admin/complaints.csv${query}`} className="underline">
                Download CSV
              </a>
              <Link to="/admin/complaints/settings" className="underline">
                Clocks and policy
              </Link>
            </>
          ) : null
        }
      />
      <div className="grid gap-6">
        <TitledCard title="Filter">
          <Form method="get" className="grid gap-3 sm:grid-cols-4 sm:items-end">
            <ErrorSummary failure={failure} />
            {admin ? (
              <SelectField
                label="Kind"
                name="kind"
                placeholder="Any kind"
                defaultValue={values.kind ?? ""}
                options={COMPLAINT_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
                error={failure?.fieldErrors.kind}
              />
            ) : null}
            <SelectField
              label="Status"
              name="status"
              placeholder="Any status"
              defaultValue={values.status ?? ""}
              options={[{ value: "open", label: "Open (not resolved)" }, ...COMPLAINT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))]}
              error={failure?.fieldErrors.status}
            />
            <SelectField
              label="Overdue"
              name="overdue"
              placeholder="Overdue or not"
              defaultValue={values.overdue ?? ""}
              options={[{ value: "yes", label: "Overdue only" }]}
              error={failure?.fieldErrors.overdue}
            />
            <button type="submit" className="min-h-11 rounded-md border border-steel-300 px-3 py-2 text-sm font-semibold">
              Show
            </button>
          </Form>
        </TitledCard>
        <TitledCard title={`${items.length} item${items.length === 1 ? "" : "s"}`}>
          {items.length === 0 ? (
            <p className="text-sm text-steel-600">Nothing matches.</p>
          ) : (
            <TableScroll label="Complaints and appeals">
              <table className="table-stack w-full text-left text-sm">
                <caption className="sr-only">Complaints and appeals, overdue first</caption>
                <thead>
                  <tr>
                    <th scope="col">Reference</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Status</th>
                    <th scope="col">Received</th>
                    <th scope="col">Acknowledge by</th>
                    <th scope="col">Resolve by</th>
                    <th scope="col">From</th>
                    {admin ? <th scope="col">Improvement</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {items.map((c) => (
                    <tr key={c.id} className="align-top">
                      <th scope="row" data-label="Reference">
                        {/* a row is one line tall: each link is given the 24 px a finger needs (WCAG 2.2, 2.5.8) */}
                        <Link to={`${base}/${c.id}`} className="inline-block min-h-6 py-0.5 font-semibold underline">
                          {c.reference}
                        </Link>
                      </th>
                      <td data-label="Kind">{KIND_LABELS[c.kind]}</td>
                      <td data-label="Status">
                        {STATUS_LABELS[c.status]}
                        {c.outcome ? `: ${OUTCOME_LABELS[c.outcome]}` : ""}
                        {c.overdue ? (
                          <Badge tone="red" className="ml-1">
                            {OVERDUE_LABELS[c.overdue]}
                          </Badge>
                        ) : null}
                      </td>
                      <td data-label="Received">{formatDate(c.received_at)}</td>
                      <td data-label="Acknowledge by">{formatDate(c.acknowledge_by)}</td>
                      <td data-label="Resolve by">{formatDate(c.resolve_by)}</td>
                      <td data-label="From">{c.name ?? "Anonymous"}</td>
                      {admin ? (
                        <td data-label="Improvement">
                          <Link to={`/admin/improvements/new?source_type=${c.kind}&source_id=${c.id}`} className="inline-block min-h-6 py-0.5 underline">
                            Raise action<span className="sr-only"> from {c.reference}</span>
                          </Link>
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Complaints and appeals" }];

export function ErrorBoundary() {
  return <RouteError title="Complaints and appeals" message="Failed to load the register" />;
}
