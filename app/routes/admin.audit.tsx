import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { queryObject } from "~/api/http.server";
import { requireRole } from "~/auth/guards.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { Alert, Button, ButtonLink, Card, EmptyState, Pagination, SelectField, TextField, TableScroll } from "~/components/ui";
import { getDb } from "~/db.server";
import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS, AUDIT_PAGE_SIZE, type AuditAction } from "~/models/audit-actions";
import { auditChainSummary, auditEntryView, listAudit } from "~/models/audit.server";
import { auditQuery } from "~/schemas/audit";
import { formatDateTime } from "~/utils/format";
import { ORGANISATION_TIME_ZONE } from "~/utils/organisation-calendar";

/**
 * The audit trail (administrators): filter by person, action, subject and dates with a GET
 * form, so every view is a link that works without JavaScript; paged; the same filters
 * download as CSV.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const raw = queryObject(request);
  const values = { person: raw.person ?? "", action: raw.action ?? "", subject: raw.subject ?? "", from: raw.from ?? "", to: raw.to ?? "" };
  const parsed = auditQuery.safeParse(raw);
  // the chain is walked once per request, whatever the filters show
  const chain = auditChainSummary(getDb());
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return data(
      { values, fieldErrors, error: parsed.error.issues[0]?.message ?? "Invalid filters", entries: [] as ReturnType<typeof auditEntryView>[], total: 0, page: 1, pages: 1, chain: await chain },
      { status: 400 },
    );
  }
  const [result, summary] = await Promise.all([listAudit(getDb(), parsed.data), chain]);
  return { values, fieldErrors: {} as Record<string, string>, error: null, ...result, entries: result.entries.map(auditEntryView), chain: summary };
}

/** Days and times on this page are the organisation's. */
const ZONE_HINT = `Days in ${ORGANISATION_TIME_ZONE} time`;

const ACTION_OPTIONS = [{ value: "", label: "Any action" }, ...AUDIT_ACTION_NAMES.map((a) => ({ value: a, label: AUDIT_ACTIONS[a] }))];

export default function AuditTrail() {
  const data = useLoaderData<typeof loader>();
  const location = useLocation();
  const csvHref = `/admin/audit.csv${location.search}`;
  return (
    <>
      <PageTitle title="Audit trail" subtitle="Who did what, when and from where. Entries can never be changed or removed." />
      {data.chain.intact ? (
        <p className="mb-4 text-sm font-semibold text-steel-800" role="status">
          {data.chain.message}
        </p>
      ) : (
        <div className="mb-4">
          <Alert>{data.chain.message}. Keep a copy of the database as it is (npm run db:backup) before anything else changes it.</Alert>
        </div>
      )}
      <Card className="mb-4 p-4">
        <Form method="get" action="/admin/audit" className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6 lg:items-end">
          <TextField label="Person" name="person" defaultValue={data.values.person} hint="Email or id" error={data.fieldErrors.person} />
          <SelectField label="Action" name="action" defaultValue={data.values.action} options={ACTION_OPTIONS} error={data.fieldErrors.action} />
          <TextField label="Subject" name="subject" defaultValue={data.values.subject} hint="Id of a record" error={data.fieldErrors.subject} />
          <TextField label="From" name="from" type="date" defaultValue={data.values.from} hint={ZONE_HINT} error={data.fieldErrors.from} />
          <TextField label="To" name="to" type="date" defaultValue={data.values.to} hint={ZONE_HINT} error={data.fieldErrors.to} />
          <div className="flex gap-2">
            <Button type="submit">Filter</Button>
            <ButtonLink to="/admin/audit" variant="secondary">
              Clear
            </ButtonLink>
          </div>
        </Form>
      </Card>
      {data.error ? <Alert>{data.error}</Alert> : null}
      <div className="mb-3 flex items-center justify-between gap-3">
        <p className="text-sm text-steel-700" role="status">
          {data.total} {data.total === 1 ? "entry" : "entries"}
        </p>
        <a href={csvHref} download className="text-sm font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900">
          Download CSV
        </a>
      </div>
      {data.entries.length === 0 ? (
        <EmptyState title="No entries match these filters" />
      ) : (
        <Card>
          <TableScroll label="Audit trail entries, newest first">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Audit trail entries, newest first</caption>
            <thead className="bg-steel-50 text-steel-700">
              <tr>
                <th scope="col" className="px-3 py-2">When</th>
                <th scope="col" className="px-3 py-2">Action</th>
                <th scope="col" className="px-3 py-2">By</th>
                <th scope="col" className="px-3 py-2">Client</th>
                <th scope="col" className="px-3 py-2">Subject</th>
                <th scope="col" className="px-3 py-2">Details</th>
              </tr>
            </thead>
            <tbody>
              {data.entries.map((e) => (
                <tr key={e.id} className="border-t border-steel-100 align-top">
                  <td className="whitespace-nowrap px-3 py-2">{formatDateTime(e.at)}</td>
                  <th scope="row" className="px-3 py-2 font-semibold text-steel-900">{AUDIT_ACTIONS[e.action as AuditAction] ?? e.action}</th>
                  <td className="px-3 py-2">{e.actor_email ?? "Anonymous"}</td>
                  <td className="px-3 py-2 font-mono text-xs">{e.client ?? ""}</td>
                  <td className="px-3 py-2">
                    {e.subject_user_email ?? (e.subject_type ? `${e.subject_type} ${e.subject_id ?? ""}` : "")}
                    {e.subject_user_email && e.subject_type !== "user" ? <span className="block text-xs text-steel-600">{e.subject_type} {e.subject_id}</span> : null}
                  </td>
                  <td className="px-3 py-2">
                    {e.fields.length ? <span className="block">Fields: {e.fields.join(", ")}</span> : null}
                    {e.detail}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          </TableScroll>
        </Card>
      )}
      <Pagination label="Entries" page={data.page} pageCount={data.pages} pageSize={AUDIT_PAGE_SIZE} total={data.total} pathname="/admin/audit" search={location.search} />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Audit trail | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Audit trail" message="Failed to load the audit trail" />;
}
