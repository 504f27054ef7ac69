import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { getInvoice } from "~/models/finance/finance.server";
import { renderInvoicePdf } from "~/pdf/invoice-pdf.server";
import { foundOr404 } from "~/route-helpers/page-records.server";
import { pdfResponse } from "~/route-helpers/pdf-response.server";

/** The learner's own invoice as PDF; anyone else's is not found. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  const invoice = await foundOr404(params.id, (id) => getInvoice(getDb(), id, { learnerId: user.id }), "Invoice not found");
  return pdfResponse(await renderInvoicePdf(invoice), `${invoice.number}.pdf`);
}
