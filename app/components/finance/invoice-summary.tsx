import { Card, TableScroll } from "~/components/ui";
import { PAYMENT_METHODS, GST_TREATMENTS } from "~/schemas/invoice-text";
import type { GstTreatment, PaymentMethod } from "#db/schema-finance";
import { formatCents, formatDate } from "~/utils/format";

interface SummaryInvoice {
  number: string;
  seller_name: string;
  seller_abn: string;
  buyer_name: string;
  buyer_abn: string | null;
  buyer_email: string;
  issue_date: string;
  due_date: string;
  subtotal_cents: number;
  gst_cents: number;
  total_cents: number;
  paid_cents: number;
  owed_cents: number;
  lines: {
    position: number;
    description: string;
    quantity: number;
    unit_price_cents: number;
    gst_treatment: GstTreatment;
    amount_cents: number;
    gst_cents: number;
  }[];
  payments: { id: string; method: PaymentMethod; reference: string; received_on: string; amount_cents: number }[];
  credit_notes: { id: string; number: string; issue_date: string; reason: string; amount_cents: number; gst_cents: number }[];
}

/** A tax invoice on a page: the parties, its lines with their GST, the totals, its payments and credit notes (the office's and the learner's view). */
export function InvoiceSummary({ invoice, creditNoteHref }: { invoice: SummaryInvoice; creditNoteHref: (id: string) => string }) {
  return (
    <Card>
      <div className="space-y-4 p-4 text-sm">
        <dl className="grid gap-2 sm:grid-cols-2">
          <div>
            <dt className="text-steel-600">From</dt>
            <dd className="font-medium">
              {invoice.seller_name}, ABN {invoice.seller_abn}
            </dd>
          </div>
          <div>
            <dt className="text-steel-600">To</dt>
            <dd className="font-medium">
              {invoice.buyer_name}
              {invoice.buyer_abn ? `, ABN ${invoice.buyer_abn}` : ""}
            </dd>
          </div>
          <div>
            <dt className="text-steel-600">Issued</dt>
            <dd>{formatDate(invoice.issue_date)}</dd>
          </div>
          <div>
            <dt className="text-steel-600">Due</dt>
            <dd>{formatDate(invoice.due_date)}</dd>
          </div>
        </dl>
        <TableScroll label={`Lines of invoice ${invoice.number}`}>
          <table className="w-full text-left">
            <caption className="sr-only">Lines of invoice {invoice.number}</caption>
            <thead className="bg-steel-50 text-steel-700">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Description
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Qty
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Price
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  GST
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {invoice.lines.map((l) => (
                <tr key={l.position} className="border-t border-steel-100">
                  <th scope="row" className="px-3 py-2 font-normal">
                    {l.description}
                    <span className="block text-xs text-steel-600">{GST_TREATMENTS[l.gst_treatment]}</span>
                  </th>
                  <td className="px-3 py-2 text-right">{l.quantity}</td>
                  <td className="px-3 py-2 text-right">{formatCents(l.unit_price_cents)}</td>
                  <td className="px-3 py-2 text-right">{formatCents(l.gst_cents)}</td>
                  <td className="px-3 py-2 text-right">{formatCents(l.amount_cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        <dl className="ml-auto grid max-w-xs grid-cols-2 gap-1">
          <dt>Total excluding GST</dt>
          <dd className="text-right">{formatCents(invoice.subtotal_cents)}</dd>
          <dt>GST</dt>
          <dd className="text-right">{formatCents(invoice.gst_cents)}</dd>
          <dt className="font-bold">Total</dt>
          <dd className="text-right font-bold">{formatCents(invoice.total_cents)}</dd>
          <dt>Paid</dt>
          <dd className="text-right">{formatCents(invoice.paid_cents)}</dd>
          <dt className="font-bold">Owed</dt>
          <dd className="text-right font-bold">{formatCents(invoice.owed_cents)}</dd>
        </dl>
        {invoice.payments.length ? (
          <div>
            <h2 className="font-bold text-steel-900">Payments</h2>
            <ul className="mt-1 space-y-1">
              {invoice.payments.map((p) => (
                <li key={p.id}>
                  {formatDate(p.received_on)}: {formatCents(p.amount_cents)} by {PAYMENT_METHODS[p.method].toLowerCase()} ({p.reference})
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {invoice.credit_notes.length ? (
          <div>
            <h2 className="font-bold text-steel-900">Credit notes</h2>
            <ul className="mt-1 space-y-1">
              {invoice.credit_notes.map((c) => (
                <li key={c.id}>
                  <a href={creditNoteHref(c.id)} className="font-semibold text-hivis-700 underline">
                    {c.number}
                  </a>{" "}
                  {formatDate(c.issue_date)}: {formatCents(c.amount_cents)} (GST {formatCents(c.gst_cents)}) · {c.reason}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
