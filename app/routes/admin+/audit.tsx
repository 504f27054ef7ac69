import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, queryObject, requireRole, getDb, auditChainSummary, CHECKPOINT_EVERY_SECONDS, auditEntryView, listAudit } from "~/routes/admin+/audit.server";
import { useLoaderData, useLocation } from "@remix-run/react";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { FilteredList } from "~/components/admin/filtered-list";
import { Alert, EmptyState, Pagination, SelectField, TextField, DataTable } from "~/components/ui";
import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS, AUDIT_PAGE_SIZE, type AuditAction } from "~/rules/audit-actions";
import { AUDIT_FILTERS, auditQuery } from "~/schemas/audit";
import { readListFilters } from "~/schemas/list-filters";
import { formatDateTime } from "~/utils/format";

/**
 * The audit trail (administrators): filter by person, action, subject and dates with a GET
 * form, so every view is a link that works without JavaScript; paged; the same filters
 * download as CSV.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const filters = readListFilters(auditQuery, queryObject(request), AUDIT_FILTERS);
  // the newest signed checkpoint and the entries after it (bounded), once per request, whatever the filters show
  const chain = auditChainSummary(getDb());
  const checkpointMinutes = CHECKPOINT_EVERY_SECONDS / 60;
  if (!filters.query) {
    return data(
      {
        ...filters,
        entries: [] as ReturnType<typeof auditEntryView>[],
        total: 0,
        totalCapped: false,
        page: 1,
        pages: 1,
        chain: await chain,
        checkpointMinutes,
      },
      { status: 400 },
    );
  }
  const [result, summary] = await Promise.all([listAudit(getDb(), filters.query), chain]);
  return { ...filters, ...result, entries: result.entries.map(auditEntryView), chain: summary, checkpointMinutes };
}

const ACTION_OPTIONS = [{ value: "", label: "Any action" }, ...AUDIT_ACTION_NAMES.map((a) => ({ value: a, label: AUDIT_ACTIONS[a] }))];

export default function AuditTrail() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const csvHref = `/admin/audit.csv${location.search}`;
  return (
    <>
      <PageTitle title="Audit trail" subtitle="Who did what, when and from where. Entries can never be changed or removed." />
      {data.chain.intact ? (
        <div className="mb-4 text-sm">
          <p className="font-semibold text-steel-800" role="status">
            {data.chain.message}
          </p>
          <p className="mt-1 text-steel-700">
            {data.chain.checkpoint
              ? `Last verified checkpoint: entry ${data.chain.checkpoint.through}, signed ${formatDateTime(data.chain.checkpoint.made_at)}. This page checks the entries after it; npm run audit:verify checks the whole trail.`
              : `No checkpoint signed yet: the background check verifies new entries and signs one every ${data.checkpointMinutes} minutes.`}
          </p>
        </div>
      ) : (
        <div className="mb-4">
          <Alert>{data.chain.message}. Keep a copy of the database as it is (npm run db:backup) before anything else changes it.</Alert>
        </div>
      )}
      <FilteredList
        path="/admin/audit"
        values={data.values}
        fieldErrors={data.fieldErrors}
        error={data.error}
        total={data.total}
        totalCapped={data.totalCapped}
        noun={["entry", "entries"]}
        extra={
          <a href={csvHref} download className="text-sm font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900">
            Download CSV
          </a>
        }
      >
        <TextField label="Person" name="person" defaultValue={data.values.person} hint="Email or id" error={data.fieldErrors.person} />
        <SelectField label="Action" name="action" defaultValue={data.values.action} options={ACTION_OPTIONS} error={data.fieldErrors.action} />
        <TextField label="Subject" name="subject" defaultValue={data.values.subject} hint="Id of a record" error={data.fieldErrors.subject} />
      </FilteredList>
      {data.entries.length === 0 ? (
        <EmptyState title="No entries match these filters" />
      ) : (
        <DataTable label="Audit trail entries, newest first" columns={["When", "Action", "By", "Client", "Subject", "Details"]}>
          {data.entries.map((e) => (
            <tr key={e.id} className="border-t border-steel-100 align-top">
              <td className="whitespace-nowrap px-3 py-2">{formatDateTime(e.at)}</td>
              <th scope="row" className="px-3 py-2 font-semibold text-steel-900">
                {AUDIT_ACTIONS[e.action as AuditAction] ?? e.action}
              </th>
              <td className="px-3 py-2">{e.actor_email ?? "Anonymous"}</td>
              <td className="px-3 py-2 font-mono text-xs">{e.client ?? ""}</td>
              <td className="px-3 py-2">
                {e.subject_user_email ?? (e.subject_type ? `${e.subject_type} ${e.subject_id ?? ""}` : "")}
                {e.subject_user_email && e.subject_type !== "user" ? (
                  <span className="block text-xs text-steel-600">
                    {e.subject_type} {e.subject_id}
                  </span>
                ) : null}
              </td>
              <td className="px-3 py-2">
                {e.fields.length ? <span className="block">Fields: {e.fields.join(", ")}</span> : null}
                {e.detail}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pagination
        label="Entries"
        one="entry"
        page={data.page}
        pageCount={data.pages}
        pageSize={AUDIT_PAGE_SIZE}
        total={data.total}
        totalCapped={data.totalCapped}
        pathname="/admin/audit"
        search={location.search}
      />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Audit trail | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Audit trail" message="Failed to load the audit trail" />;
}
