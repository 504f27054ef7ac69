import { InvoiceStatusBadge } from "~/components/finance/invoice-status";
import { Card, EmptyState } from "~/components/ui";
import type { Selectable } from "kysely";
import type { InvoicesTable } from "#db/schema-finance";
import type { InvoiceStatus } from "~/rules/invoice-rules";
import { formatCents, formatDate } from "~/utils/format";

/** An invoice's own columns, with what is still owed and its status worked out by the model. */
export type InvoiceListRow = Pick<Selectable<InvoicesTable>, "id" | "number" | "issue_date" | "total_cents" | "gst_cents"> & {
  owed_cents: number;
  status: InvoiceStatus;
};

/** A buyer's own invoices (a learner's, an employer's): number, date, amount, status, what is owed and the PDF at `${pdfBase}/{id}/pdf`. */
export function InvoiceList({ invoices, pdfBase }: { invoices: InvoiceListRow[]; pdfBase: string }) {
  if (invoices.length === 0) return <EmptyState title="No invoices yet" />;
  return (
    <ul className="space-y-3">
      {invoices.map((i) => (
        <li key={i.id}>
          <Card>
            <div className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div>
                <p className="font-bold text-steel-900">Invoice {i.number}</p>
                <p className="text-sm text-steel-600">
                  Issued {formatDate(i.issue_date)} · {formatCents(i.total_cents)} (GST {formatCents(i.gst_cents)}) · owed {formatCents(i.owed_cents)}
                </p>
              </div>
              <div className="flex items-center gap-3">
                <InvoiceStatusBadge status={i.status} />
                <a href={`${pdfBase}/${i.id}/pdf`} className="inline-flex min-h-11 items-center font-semibold text-hivis-700 underline">
                  Download PDF<span className="sr-only"> of invoice {i.number}</span>
                </a>
              </div>
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
