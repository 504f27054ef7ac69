import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { exportXeroCsv } from "~/models/finance/finance.server";
import { exportPeriodSchema, REFUSED_EXPORT_PERIOD } from "~/schemas/invoice";
import { parseWith } from "~/utils/validation";
import { csvResponse } from "~/http/csv-response.server";

/** The invoices issued in a period as Xero's sales-invoice import CSV (administrators). */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = parseWith(exportPeriodSchema, query);
  if (!parsed.success) {
    // back to the form that asked, which says at each date what is wrong with it (a 400 page)
    const again = new URLSearchParams({ [REFUSED_EXPORT_PERIOD.from]: query.from ?? "", [REFUSED_EXPORT_PERIOD.to]: query.to ?? "" });
    return redirect(`/admin/finance?${again}`);
  }
  const { columns, rows } = await exportXeroCsv(getDb(), { ...parsed.data, actor: { id: admin.id, client: clientAddress(request) } });
  // no byte-order mark: Xero's importer reads the first column's name with it
  return csvResponse({ request, columns, rows, filename: `xero-invoices-${parsed.data.from}-to-${parsed.data.to}.csv`, byteOrderMark: false });
}
