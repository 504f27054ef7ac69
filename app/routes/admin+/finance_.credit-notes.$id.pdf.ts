import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { getCreditNote } from "~/models/finance/finance.server";
import { renderCreditNotePdf } from "~/pdf/invoice-pdf.server";
import { foundOr404 } from "~/route-helpers/page-records.server";
import { pdfResponse } from "~/route-helpers/pdf-response.server";

/** A credit note's PDF (administrators). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const note = await foundOr404(params.id, (id) => getCreditNote(getDb(), id, { learnerId: null }), "Credit note not found");
  return pdfResponse(await renderCreditNotePdf(note), `${note.number}.pdf`);
}
