import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  data,
  queryObject,
  requireRole,
  getDb,
  IMPROVEMENT_PAGE_SIZE,
  listActionOwners,
  listImprovementActions,
  type ImprovementAction,
} from "~/routes/admin+/improvements._index.server";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { FilteredList } from "~/components/admin/filtered-list";
import { ImprovementStatusBadge } from "~/components/admin/improvement-badges";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { ButtonLink, EmptyState, Pagination, SelectField, DataTable } from "~/components/ui";
import { IMPROVEMENT_FILTERS, improvementListQuery } from "~/schemas/improvement";
import { IMPROVEMENT_SOURCE_LABELS, IMPROVEMENT_SOURCES, IMPROVEMENT_STATUS_LABELS, IMPROVEMENT_STATUSES } from "~/schemas/improvement-text";
import { readListFilters } from "~/schemas/list-filters";
import { formatDate } from "~/utils/format";

/**
 * The improvement register (administrators): every action, overdue first, with GET filters (each
 * view a link that works without JavaScript), paged, and the same view as a CSV download.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const filters = readListFilters(improvementListQuery, queryObject(request), IMPROVEMENT_FILTERS);
  const owners = await listActionOwners(db);
  if (!filters.query) {
    return data({ ...filters, owners, actions: [] as ImprovementAction[], total: 0, page: 1, pages: 1, pageSize: IMPROVEMENT_PAGE_SIZE }, { status: 400 });
  }
  const result = await listImprovementActions(db, filters.query);
  return { ...filters, owners, ...result, pageSize: IMPROVEMENT_PAGE_SIZE };
}

const STATUS_OPTIONS = [{ value: "", label: "Any status" }, ...IMPROVEMENT_STATUSES.map((s) => ({ value: s, label: IMPROVEMENT_STATUS_LABELS[s] }))];
const SOURCE_OPTIONS = [{ value: "", label: "Any source" }, ...IMPROVEMENT_SOURCES.map((s) => ({ value: s, label: IMPROVEMENT_SOURCE_LABELS[s] }))];
const OVERDUE_OPTIONS = [
  { value: "", label: "All" },
  { value: "1", label: "Only overdue" },
];

export default function ImprovementRegister() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const ownerOptions = [{ value: "", label: "Anyone" }, ...data.owners.map((o) => ({ value: o.id, label: o.full_name }))];
  return (
    <>
      <PageTitle
        title="Improvement register"
        subtitle="What we learnt from complaints, appeals, validation, questionnaires and audits, and what we changed. Overdue actions come first."
        actions={<ButtonLink to="/admin/improvements/new">Raise an action</ButtonLink>}
      />
      <FilteredList
        path="/admin/improvements"
        values={data.values}
        fieldErrors={data.fieldErrors}
        error={data.error}
        total={data.total}
        noun={["action", "actions"]}
        extra={
          <a href={`/admin/improvements.csv${location.search}`} className="text-sm font-semibold text-hivis-800 underline underline-offset-4" download>
            Download CSV
          </a>
        }
      >
        <SelectField label="Status" name="status" defaultValue={data.values.status} options={STATUS_OPTIONS} error={data.fieldErrors.status} />
        <SelectField label="Source" name="source_type" defaultValue={data.values.source_type} options={SOURCE_OPTIONS} error={data.fieldErrors.source_type} />
        <SelectField label="Owner" name="owner" defaultValue={data.values.owner} options={ownerOptions} error={data.fieldErrors.owner} />
        <SelectField label="Overdue" name="overdue" defaultValue={data.values.overdue} options={OVERDUE_OPTIONS} error={data.fieldErrors.overdue} />
      </FilteredList>
      {data.actions.length === 0 ? (
        <EmptyState title="No improvement actions match these filters" />
      ) : (
        <DataTable label="Improvement actions, overdue first" columns={["Action", "Source", "Owner", "Due", "Status"]}>
          {data.actions.map((a) => (
            <tr key={a.id} className="border-t border-steel-100 align-top">
              <th scope="row" className="max-w-md px-3 py-2 font-normal text-steel-900">
                <Link to={`/admin/improvements/${a.id}`} className="font-semibold text-hivis-800 underline-offset-4 hover:underline">
                  {a.description.length > 120 ? `${a.description.slice(0, 117)}...` : a.description}
                </Link>
              </th>
              <td className="px-3 py-2">
                {IMPROVEMENT_SOURCE_LABELS[a.source_type]}
                {a.source_label || a.source_id ? <span className="block text-xs text-steel-600">{a.source_label ?? a.source_id}</span> : null}
              </td>
              <td className="px-3 py-2">{a.owner.full_name}</td>
              <td className="whitespace-nowrap px-3 py-2">{formatDate(a.due_date)}</td>
              <td className="px-3 py-2">
                <ImprovementStatusBadge status={a.status} overdue={a.overdue} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pagination
        label="Improvement actions"
        one="action"
        page={data.page}
        pageCount={data.pages}
        pageSize={data.pageSize}
        total={data.total}
        pathname="/admin/improvements"
        search={location.search}
      />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Improvement register | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Improvement register" message="Failed to load the improvement register" />;
}
