import { getDb } from "~/db.server";
import { getCreditNote, getInvoice, type InvoiceScope } from "~/models/finance/finance.server";
import { renderCreditNotePdf, renderInvoicePdf } from "~/pdf/invoice-pdf.server";
import { fileRecordOr404 } from "./file-refusal.server";

/** A PDF document as a download. */
export function pdfResponse(bytes: Uint8Array, filename: string): Response {
  return new Response(Buffer.from(bytes), {
    headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "private, no-store" },
  });
}

/**
 * A tax invoice's PDF for whoever the scope lets read it (the office, its learner, its employer's
 * users); any other id, unknown or malformed, is the same plain-text 404.
 */
export async function invoicePdfAnswer(id: string | undefined, scope: InvoiceScope): Promise<Response> {
  const invoice = await fileRecordOr404(id, (found) => getInvoice(getDb(), found, scope), "Invoice not found");
  return pdfResponse(await renderInvoicePdf(invoice), `${invoice.number}.pdf`);
}

/** A credit note's PDF, the one document the office and the buyer both download, scoped as invoicePdfAnswer. */
export async function creditNotePdfAnswer(id: string | undefined, scope: InvoiceScope): Promise<Response> {
  const note = await fileRecordOr404(id, (found) => getCreditNote(getDb(), found, scope), "Credit note not found");
  return pdfResponse(await renderCreditNotePdf(note), `${note.number}.pdf`);
}
