import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { exportXeroCsv } from "~/models/finance/finance.server";
import { exportPeriodSchema } from "~/schemas/invoice";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseWith } from "~/utils/validation";
import { csvResponse } from "~/http/csv-response.server";

/** The invoices issued in a period as Xero's sales-invoice import CSV (administrators). */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const parsed = parseWith(exportPeriodSchema, Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return redirectWithFlash("/admin/finance", { type: "error", message: parsed.message });
  const { columns, rows } = await exportXeroCsv(getDb(), { ...parsed.data, actor: { id: admin.id, client: clientAddress(request) } });
  // no byte-order mark: Xero's importer reads the first column's name with it
  return csvResponse({ request, columns, rows, filename: `xero-invoices-${parsed.data.from}-to-${parsed.data.to}.csv`, byteOrderMark: false });
}
