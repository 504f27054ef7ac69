import type { DB } from "#db/connection";
import { getInvoice, type InvoiceDetail } from "~/models/finance/finance.server";
import { notFound } from "~/utils/errors";
import type { InvoiceResponse } from "./employer-schemas";

/** One invoice as /api answers it (administrators: no learner scope); an unknown id is a 404. */
export async function invoiceAnswer(db: DB, id: string): Promise<InvoiceResponse> {
  const invoice = await getInvoice(db, id, { learnerId: null });
  if (!invoice) throw notFound("Invoice");
  return invoiceBody(invoice);
}

function invoiceBody(i: InvoiceDetail): InvoiceResponse {
  return {
    id: i.id,
    number: i.number,
    status: i.status,
    buyer_kind: i.buyer_kind,
    buyer_id: i.buyer_id,
    buyer_name: i.buyer_name,
    buyer_abn: i.buyer_abn,
    buyer_email: i.buyer_email,
    seller_name: i.seller_name,
    seller_abn: i.seller_abn,
    source_kind: i.source_kind,
    source_id: i.source_id,
    issue_date: i.issue_date,
    due_date: i.due_date,
    subtotal_cents: Number(i.subtotal_cents),
    total_cents: Number(i.total_cents),
    gst_cents: Number(i.gst_cents),
    paid_cents: Number(i.paid_cents),
    credited_cents: Number(i.credited_cents),
    owed_cents: Number(i.owed_cents),
    refundable_cents: Number(i.refundable_cents),
    lines: i.lines.map((l) => ({
      ...l,
      position: Number(l.position),
      quantity: Number(l.quantity),
      unit_price_cents: Number(l.unit_price_cents),
      amount_cents: Number(l.amount_cents),
      gst_cents: Number(l.gst_cents),
    })),
    payments: i.payments.map((p) => ({ ...p, amount_cents: Number(p.amount_cents) })),
    credit_notes: i.credit_notes.map((c) => ({ ...c, amount_cents: Number(c.amount_cents), gst_cents: Number(c.gst_cents) })),
  };
}
