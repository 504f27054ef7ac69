import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, listInvoices } from "~/routes/admin+/finance.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { Button, Card, EmptyState, SelectField, TextField, DataTable } from "~/components/ui";
import { InvoiceStatusBadge } from "~/components/finance/invoice-status";
import { invoiceFiltersSchema } from "~/schemas/invoice";
import { INVOICE_STATUS_LABELS, INVOICE_STATUSES } from "~/schemas/invoice-text";
import { formatCents, formatDate } from "~/utils/format";
import { organisationToday } from "~/utils/organisation-calendar";
import { parseWith } from "~/utils/validation";

/**
 * Finance (administrators): every invoice with what is owed, overdue and paid; filters in a GET
 * form (status, issue period, buyer), so each view is a link that works without JavaScript; the
 * totals of every matching invoice are summed by the database. The accounting export of a period
 * is a GET form too (a download reads, it changes nothing).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = parseWith(invoiceFiltersSchema, query);
  const values = { status: query.status ?? "", from: query.from ?? "", to: query.to ?? "", buyer: query.buyer ?? "" };
  const today = organisationToday();
  const monthStart = `${today.slice(0, 8)}01`;
  if (!parsed.success) return { values, fieldErrors: parsed.fieldErrors, invoices: [], totals: null, page: 1, pages: 1, monthStart, today };
  const result = await listInvoices(getDb(), parsed.data, { page: parsed.data.page });
  return { values, fieldErrors: {} as Record<string, string>, ...result, monthStart, today };
}

const STATUS_OPTIONS = [{ value: "", label: "Any status" }, ...INVOICE_STATUSES.map((s) => ({ value: s, label: INVOICE_STATUS_LABELS[s] }))];

export default function FinancePage() {
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Finance"
        subtitle="Tax invoices, what is owed and what is overdue. Open an invoice to record a payment or issue a credit note."
        actions={
          <Link to="/admin/finance/settings" className="font-semibold text-hivis-700 underline">
            Finance settings
          </Link>
        }
      />
      <Card>
        <Form method="get" className="grid gap-4 p-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
          <SelectField label="Status" name="status" defaultValue={data.values.status} options={STATUS_OPTIONS} error={data.fieldErrors.status} />
          <TextField label="Issued from" name="from" type="date" defaultValue={data.values.from} error={data.fieldErrors.from} />
          <TextField label="Issued to" name="to" type="date" defaultValue={data.values.to} error={data.fieldErrors.to} />
          <TextField label="Buyer" name="buyer" defaultValue={data.values.buyer} hint="Name, email, ABN or number" error={data.fieldErrors.buyer} />
          <Button type="submit">Filter</Button>
        </Form>
      </Card>
      {data.totals ? (
        <dl className="mt-4 grid gap-3 sm:grid-cols-4" aria-label="Totals of the invoices listed">
          {[
            ["Invoiced", data.totals.total_cents],
            ["Paid", data.totals.paid_cents],
            ["Owed", data.totals.owed_cents],
            ["Overdue", data.totals.overdue_cents],
          ].map(([label, cents]) => (
            <div key={label} className="rounded-lg border border-steel-200 bg-white p-3">
              <dt className="text-sm text-steel-600">{label}</dt>
              <dd className="text-xl font-bold text-steel-900">{formatCents(Number(cents))}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <div className="mt-4">
        {data.invoices.length === 0 ? (
          <EmptyState title="No invoices match these filters" />
        ) : (
          <DataTable
            label="Invoices, newest first"
            columns={["Number", "Buyer", "Issued", "Due", { label: "Total", className: "text-right" }, { label: "Owed", className: "text-right" }, "Status"]}
          >
            {data.invoices.map((i) => (
              <tr key={i.id} className="border-t border-steel-100">
                <th scope="row" className="px-3 py-2 font-semibold">
                  <Link to={`/admin/finance/${i.id}`} className="text-hivis-700 underline">
                    {i.number}
                  </Link>
                </th>
                <td className="px-3 py-2">{i.buyer_name}</td>
                <td className="whitespace-nowrap px-3 py-2">{formatDate(i.issue_date)}</td>
                <td className="whitespace-nowrap px-3 py-2">{formatDate(i.due_date)}</td>
                <td className="px-3 py-2 text-right">{formatCents(i.total_cents)}</td>
                <td className="px-3 py-2 text-right">{formatCents(i.owed_cents)}</td>
                <td className="px-3 py-2">
                  <InvoiceStatusBadge status={i.status} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </div>
      <section aria-labelledby="export-title" className="mt-6">
        <Card>
          <div className="p-4">
            <h2 id="export-title" className="text-lg font-bold text-steel-900">
              Export for Xero
            </h2>
            <p className="text-sm text-steel-600">
              The invoices issued in a period, in Xero&apos;s sales-invoice import layout (amounts include GST: import them as tax inclusive).
            </p>
            <Form method="get" action="/admin/finance/xero.csv" reloadDocument className="mt-3 grid gap-4 sm:grid-cols-3 sm:items-end">
              <TextField label="From" name="from" type="date" defaultValue={data.monthStart} required />
              <TextField label="To" name="to" type="date" defaultValue={data.today} required />
              <Button type="submit" variant="secondary">
                Download CSV
              </Button>
            </Form>
          </div>
        </Card>
      </section>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Finance | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Finance" message="Failed to load the invoices" />;
}
