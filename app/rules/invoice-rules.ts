import type { GstTreatment } from "#db/schema-finance";

/**
 * Invoice arithmetic, in integer cents, with no database: prices are GST-inclusive (what the
 * buyer pays), and a taxable line's GST is one eleventh of its amount (10% on the GST-exclusive
 * price), rounded to the nearest cent on each line (docs/decisions/033-invoices.md). One eleventh
 * of a whole number of cents is never exactly half a cent, so no tie rule is needed.
 */

export const GST_RATE_PERCENT = 10;

/** A line's GST: 0 when GST-free; else amount/11 rounded to the nearest cent. */
export function lineGst(amountCents: number, treatment: GstTreatment): number {
  if (treatment === "gst_free") return 0;
  return Math.floor((2 * amountCents + 11) / 22);
}

export interface PricedLine {
  quantity: number;
  unit_price_cents: number;
  gst_treatment: GstTreatment;
}

/** Each line's amount and GST, and the invoice's totals: the sums of its lines. */
export function invoiceTotals<L extends PricedLine>(
  lines: readonly L[],
): { lines: (L & { amount_cents: number; gst_cents: number })[]; subtotal_cents: number; gst_cents: number; total_cents: number } {
  const priced = lines.map((line) => {
    const amount = line.quantity * line.unit_price_cents;
    return { ...line, amount_cents: amount, gst_cents: lineGst(amount, line.gst_treatment) };
  });
  const total = priced.reduce((sum, l) => sum + l.amount_cents, 0);
  const gst = priced.reduce((sum, l) => sum + l.gst_cents, 0);
  return { lines: priced, subtotal_cents: total - gst, gst_cents: gst, total_cents: total };
}

/** What a booking of `seats` seats costs, before it is made: the same arithmetic as its invoice. */
export function seatQuote(seats: number, course: { price_cents: number; gst_treatment: GstTreatment }) {
  const totals = invoiceTotals([{ quantity: seats, unit_price_cents: course.price_cents, gst_treatment: course.gst_treatment }]);
  return { seat_cents: course.price_cents, seats, gst_cents: totals.gst_cents, total_cents: totals.total_cents };
}

/**
 * The GST share of a credit note: the invoice's GST in proportion to the amount credited,
 * rounded to the nearest cent; a credit note for the whole invoice carries all of its GST.
 */
export function creditGst(amountCents: number, invoice: { total_cents: number; gst_cents: number }): number {
  if (invoice.total_cents === 0) return 0;
  if (amountCents === invoice.total_cents) return invoice.gst_cents;
  return Math.round((amountCents * invoice.gst_cents) / invoice.total_cents);
}

/** Where an invoice stands. */
export type InvoiceStatus = "paid" | "part_paid" | "owed" | "overdue" | "credited";

/**
 * Owed is the invoice's total less what was paid; a credit note refunds money paid, so it takes
 * as much off what was paid as off the total and leaves what is owed unchanged. An invoice
 * refunded in full is "credited"; one with something owed after its due date is "overdue".
 */
export function invoiceStatus(invoice: { total_cents: number; paid_cents: number; credited_cents: number; due_date: string }, today: string): InvoiceStatus {
  if (invoice.total_cents > 0 && invoice.credited_cents >= invoice.total_cents) return "credited";
  const owed = invoice.total_cents - invoice.paid_cents;
  if (owed <= 0) return "paid";
  if (invoice.due_date < today) return "overdue";
  return invoice.paid_cents > 0 ? "part_paid" : "owed";
}

/** An ABN as printed: 51 824 753 556. */
export function formatAbn(abn: string): string {
  const digits = abn.replace(/\D/g, "");
  return digits.length === 11 ? `${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}` : abn;
}

/** A document number in its series: INV-000042, CN-000007. */
export function documentNumber(prefix: "INV" | "CN", value: number): string {
  return `${prefix}-${String(value).padStart(6, "0")}`;
}
