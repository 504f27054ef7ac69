import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { getInvoice } from "~/models/finance/finance.server";
import { renderInvoicePdf } from "~/pdf/invoice-pdf.server";
import { foundOr404 } from "~/route-helpers/page-records.server";
import { pdfResponse } from "~/route-helpers/pdf-response.server";

/** An invoice's PDF (administrators). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const invoice = await foundOr404(params.id, (id) => getInvoice(getDb(), id, { learnerId: null }), "Invoice not found");
  return pdfResponse(await renderInvoicePdf(invoice), `${invoice.number}.pdf`);
}
