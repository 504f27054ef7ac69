import type { Color, PDFDocument, PDFFont, PDFPage } from "pdf-lib";
import type { InvoiceDetail } from "~/models/finance/finance.server";
import type { getCreditNote } from "~/models/finance/finance.server";
import { formatAbn, GST_RATE_PERCENT } from "~/rules/invoice-rules";
import { formatCents, formatDate } from "~/utils/format";
import { PAYMENT_METHODS } from "~/schemas/invoice-text";
import { creditNotePolicyLine } from "~/schemas/refund-policy";

/**
 * Tax invoices and credit notes as PDF, drawn with pdf-lib (a one-page document of text and rules
 * needs no browser). The words a tax invoice must carry are all here: "Tax invoice", the seller's
 * name and ABN, the issue date and number, the buyer's name (and ABN when they have one), each
 * line's description, quantity, price and GST, and the totals with the GST they include.
 */

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;

/** The standard fonts encode WinAnsi only: anything else is replaced rather than failing the document. */
const printable = (text: string) =>
  text
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, "-")
    .replace(/[^\x20-\x7E\xA0-\xFF]/g, "?");

class Writer {
  y = A4[1] - MARGIN;
  constructor(
    readonly pdf: PDFDocument,
    public page: PDFPage,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    readonly colours: { ink: Color; rule: Color },
  ) {}
  /** Starts a new page when fewer than `height` points are left above the bottom margin. */
  room(height: number) {
    if (this.y - height >= MARGIN) return;
    this.page = this.pdf.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  /** The text broken into lines no wider than `width` (at word boundaries; a longer word is cut). */
  wrap(value: string, width: number, size = 10): string[] {
    const lines: string[] = [];
    let line = "";
    for (const word of printable(value).split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (this.font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      while (this.font.widthOfTextAtSize(line, size) > width) {
        let cut = line.length - 1;
        while (cut > 1 && this.font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    if (line) lines.push(line);
    return lines.length ? lines : [""];
  }
  text(value: string, options: { x?: number; size?: number; bold?: boolean; right?: number } = {}) {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.font;
    const text = printable(value);
    const x = options.right !== undefined ? options.right - font.widthOfTextAtSize(text, size) : (options.x ?? MARGIN);
    this.page.drawText(text, { x, y: this.y, size, font, color: this.colours.ink });
  }
  down(by = 14) {
    this.y -= by;
  }
  rule() {
    this.page.drawLine({ start: { x: MARGIN, y: this.y + 4 }, end: { x: A4[0] - MARGIN, y: this.y + 4 }, thickness: 0.5, color: this.colours.rule });
    this.down(10);
  }
}

async function newDocument(title: string) {
  // pdf-lib is loaded at the first invoice printed, not at every worker's start
  const { PDFDocument, StandardFonts, rgb } = await import("pdf-lib");
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setCreator("Summit Crane & Rigging Training portal");
  const page = pdf.addPage(A4);
  const w = new Writer(pdf, page, await pdf.embedFont(StandardFonts.Helvetica), await pdf.embedFont(StandardFonts.HelveticaBold), {
    ink: rgb(0.1, 0.12, 0.15),
    rule: rgb(0.6, 0.6, 0.6),
  });
  return { pdf, w };
}

function parties(w: Writer, doc: { seller_name: string; seller_abn: string; buyer_name: string; buyer_abn: string | null; buyer_email: string }) {
  w.text(doc.seller_name, { bold: true, size: 12 });
  w.down();
  w.text(`ABN ${formatAbn(doc.seller_abn)}`);
  w.down(24);
  w.text("Bill to", { bold: true });
  w.down();
  w.text(doc.buyer_name);
  w.down();
  if (doc.buyer_abn) {
    w.text(`ABN ${formatAbn(doc.buyer_abn)}`);
    w.down();
  }
  w.text(doc.buyer_email);
  w.down(24);
}

const RIGHT = A4[0] - MARGIN;
const COLUMNS = { qty: 330, price: 410, gst: 470, amount: RIGHT };
/** A line's description wraps within its column, clear of the quantity printed right-aligned at COLUMNS.qty. */
const DESCRIPTION_WIDTH = COLUMNS.qty - MARGIN - 40;

/** The invoice as a PDF document's bytes. */
export async function renderInvoicePdf(invoice: InvoiceDetail): Promise<Uint8Array> {
  const { pdf, w } = await newDocument(`Tax invoice ${invoice.number}`);
  w.text("Tax invoice", { size: 20, bold: true });
  w.text(invoice.number, { size: 14, bold: true, right: RIGHT });
  w.down(28);
  parties(w, invoice);
  w.text(`Invoice number: ${invoice.number}`);
  w.down();
  w.text(`Issue date: ${formatDate(invoice.issue_date)}`);
  w.down();
  w.text(`Due date: ${formatDate(invoice.due_date)}`);
  w.down(24);
  w.text("Description", { bold: true });
  w.text("Qty", { bold: true, right: COLUMNS.qty });
  w.text("Unit price", { bold: true, right: COLUMNS.price });
  w.text("GST", { bold: true, right: COLUMNS.gst });
  w.text("Amount", { bold: true, right: COLUMNS.amount });
  w.down();
  w.rule();
  // Each description is printed whole (it names the unit code and the class dates), wrapped in
  // its column; a line that would cross the bottom margin starts on the next page.
  for (const line of invoice.lines) {
    const described = w.wrap(line.description, DESCRIPTION_WIDTH);
    w.room(described.length * 12 + 16);
    w.text(described[0]);
    w.text(String(line.quantity), { right: COLUMNS.qty });
    w.text(formatCents(line.unit_price_cents), { right: COLUMNS.price });
    w.text(formatCents(line.gst_cents), { right: COLUMNS.gst });
    w.text(formatCents(line.amount_cents), { right: COLUMNS.amount });
    w.down(12);
    for (const more of described.slice(1)) {
      w.text(more);
      w.down(12);
    }
    w.text(line.gst_treatment === "taxable" ? `Taxable: GST ${GST_RATE_PERCENT}% included` : "GST-free (accredited VET course)", { size: 8 });
    w.down(16);
  }
  w.room(14 * (5 + invoice.payments.length + 2 * invoice.credit_notes.length + 2) + 42);
  w.rule();
  const total = (label: string, cents: number, bold = false) => {
    // left of the amounts by the widest label (a credit note's number and date) and the widest amount
    w.text(label, { x: 280, bold });
    w.text(formatCents(cents), { right: RIGHT, bold });
    w.down();
  };
  total("Total excluding GST", invoice.subtotal_cents);
  total("GST", invoice.gst_cents);
  total("Total including GST", invoice.total_cents, true);
  w.down(6);
  // A credit note takes its amount off what the invoice bills and gives that much of the money
  // paid back: it is printed as a credit against the total, then as a refund against the
  // payments, so the column adds up, top to bottom, to the amount owed.
  if (invoice.credit_notes.length) {
    for (const c of invoice.credit_notes) total(`Less credit note ${c.number} of ${formatDate(c.issue_date)}`, -c.amount_cents);
    total("GST after credit notes", invoice.gst_cents - invoice.credit_notes.reduce((sum, c) => sum + c.gst_cents, 0));
    total("Total after credit notes", invoice.total_cents - invoice.credited_cents, true);
    w.down(6);
  }
  for (const p of invoice.payments) total(`Paid ${formatDate(p.received_on)} (${PAYMENT_METHODS[p.method]})`, -p.amount_cents);
  for (const c of invoice.credit_notes) total(`Refunded under credit note ${c.number}`, c.amount_cents);
  total("Amount owed", invoice.owed_cents, true);
  w.down(10);
  w.text("Prices include GST where shown. Accredited VET courses are GST-free.", { size: 8 });
  return pdf.save();
}

/** A credit note (adjustment note) as a PDF document's bytes. */
export async function renderCreditNotePdf(note: NonNullable<Awaited<ReturnType<typeof getCreditNote>>>): Promise<Uint8Array> {
  const { pdf, w } = await newDocument(`Credit note ${note.number}`);
  w.text("Credit note", { size: 20, bold: true });
  w.text(note.number, { size: 14, bold: true, right: RIGHT });
  w.down(14);
  w.text("Adjustment note for a tax invoice", { size: 9 });
  w.down(20);
  parties(w, note);
  w.text(`Credit note number: ${note.number}`);
  w.down();
  w.text(`Issue date: ${formatDate(note.issue_date)}`);
  w.down();
  w.text(`Against tax invoice ${note.invoice_number} of ${formatDate(note.invoice_issue_date)}`);
  w.down();
  w.text(creditNotePolicyLine(note.refund_policy_version));
  w.down();
  for (const line of w.wrap(`Reason: ${note.reason}`, RIGHT - MARGIN)) {
    w.room(14);
    w.text(line);
    w.down();
  }
  w.down(10);
  w.rule();
  w.text("Amount credited (including GST)", { x: 300 });
  w.text(formatCents(note.amount_cents), { right: RIGHT, bold: true });
  w.down();
  w.text("GST included", { x: 300 });
  w.text(formatCents(note.gst_cents), { right: RIGHT });
  w.down();
  return pdf.save();
}
