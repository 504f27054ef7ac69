import { InvoiceStatusBadge } from "~/components/finance/invoice-status";
import { Card, EmptyState } from "~/components/ui";
import type { Selectable } from "kysely";
import type { CreditNotesTable, InvoicesTable } from "#db/schema-finance";
import type { InvoiceStatus } from "~/rules/invoice-rules";
import { formatCents, formatDate } from "~/utils/format";

/** A credit note as a buyer's list shows it. */
type CreditNoteRow = Pick<Selectable<CreditNotesTable>, "id" | "number" | "issue_date" | "reason" | "amount_cents" | "gst_cents">;

/** An invoice's own columns, with what is still owed, its status and its credit notes worked out by the model. */
export type InvoiceListRow = Pick<Selectable<InvoicesTable>, "id" | "number" | "issue_date" | "total_cents" | "gst_cents"> & {
  owed_cents: number;
  status: InvoiceStatus;
  credit_notes: CreditNoteRow[];
};

const LINK = "inline-flex min-h-11 items-center font-semibold text-hivis-700 underline";

/**
 * A buyer's own invoices (a learner's, an employer's): number, date, amount, status, what is owed
 * and the PDF at `${portal}/invoices/{id}/pdf`; under each, the credit notes issued against it,
 * each with its PDF at `${portal}/credit-notes/{id}/pdf`.
 */
export function InvoiceList({ invoices, portal }: { invoices: InvoiceListRow[]; portal: "/student" | "/employer" }) {
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
                <a href={`${portal}/invoices/${i.id}/pdf`} className={LINK}>
                  Download PDF<span className="sr-only"> of invoice {i.number}</span>
                </a>
              </div>
            </div>
            {i.credit_notes.length ? <CreditNotes invoice={i} portal={portal} /> : null}
          </Card>
        </li>
      ))}
    </ul>
  );
}

/** The credit notes against one invoice: each a refund of money paid, so what is owed above already counts them. */
function CreditNotes({ invoice, portal }: { invoice: InvoiceListRow; portal: string }) {
  const heading = `credit-notes-${invoice.id}`;
  return (
    <div className="border-t border-steel-100 px-4 pb-3 pt-2 text-sm">
      <p id={heading} className="font-semibold text-steel-900">
        Credit notes against invoice {invoice.number}
      </p>
      <ul aria-labelledby={heading} className="divide-y divide-steel-100">
        {invoice.credit_notes.map((c) => (
          <li key={c.id} className="flex flex-wrap items-center justify-between gap-x-3">
            <p className="min-w-0 break-words py-1 text-steel-700">
              Credit note {c.number}, issued {formatDate(c.issue_date)}: {formatCents(c.amount_cents)} credited and refunded (GST {formatCents(c.gst_cents)})
              {c.reason ? <span className="block text-steel-600">Reason: {c.reason}</span> : null}
            </p>
            <a href={`${portal}/credit-notes/${c.id}/pdf`} className={LINK}>
              Download PDF<span className="sr-only"> of credit note {c.number}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
