import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, listInvoices } from "~/routes/admin+/finance.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { Button, Card, EmptyState, ErrorSummary, SelectField, TextField, DataTable } from "~/components/ui";
import { InvoiceStatusBadge } from "~/components/finance/invoice-status";
import { exportPeriodSchema, invoiceFiltersSchema, REFUSED_EXPORT_PERIOD } from "~/schemas/invoice";
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
  const exported = refusedExport(query);
  const exportPeriod = exported?.values ?? { from: monthStart, to: today };
  const exportFailure = exported?.failure ?? null;
  const answer = parsed.success
    ? {
        values,
        fieldErrors: {} as Record<string, string>,
        ...(await listInvoices(getDb(), parsed.data, { page: parsed.data.page })),
        exportPeriod,
        exportFailure,
      }
    : { values, fieldErrors: parsed.fieldErrors, invoices: [], totals: null, page: 1, pages: 1, exportPeriod, exportFailure };
  return data(answer, { status: exportFailure ? 400 : 200 });
}

/**
 * The export period the download sent back (xero.csv), with what is wrong with it: the form
 * shows it as typed and each message at its date. Null when the page was not sent back.
 */
function refusedExport(query: Record<string, string>) {
  if (!(REFUSED_EXPORT_PERIOD.from in query) && !(REFUSED_EXPORT_PERIOD.to in query)) return null;
  const values = { from: query[REFUSED_EXPORT_PERIOD.from] ?? "", to: query[REFUSED_EXPORT_PERIOD.to] ?? "" };
  const parsed = parseWith(exportPeriodSchema, values);
  return { values, failure: parsed.success ? null : { error: parsed.message, fieldErrors: parsed.fieldErrors } };
}

/** The export form's dates; their ids are their own, as the invoice filters above have fields named from and to too. */
const EXPORT_FIELDS = [
  { name: "from", label: "From" },
  { name: "to", label: "To" },
] as const;
const EXPORT_FIELD_IDS = { from: "export-from", to: "export-to" };

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
            <Form method="get" action="/admin/finance/xero.csv" reloadDocument noValidate className="mt-3 grid gap-4 sm:grid-cols-3 sm:items-end">
              {data.exportFailure ? (
                <div className="sm:col-span-3">
                  <ErrorSummary failure={data.exportFailure} fieldIds={EXPORT_FIELD_IDS} />
                </div>
              ) : null}
              {EXPORT_FIELDS.map(({ name, label }) => (
                <TextField
                  key={name}
                  label={label}
                  name={name}
                  id={EXPORT_FIELD_IDS[name]}
                  type="date"
                  defaultValue={data.exportPeriod[name]}
                  required
                  error={data.exportFailure?.fieldErrors[name]}
                />
              ))}
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
