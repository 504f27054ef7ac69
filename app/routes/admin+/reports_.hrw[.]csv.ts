import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { HRW_REPORT_COLUMNS, hrwReportRow, hrwReportRows } from "~/models/hrw/hrw-assessment.server";
import { csvResponse, mapRows } from "~/http/csv-response.server";
import { readHrwPeriod } from "~/schemas/hrw";

/** The regulator's audit as a CSV download, for the same period as the page (admins only), every assessment, streamed. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const period = readHrwPeriod(new URL(request.url));
  if (!period.success) return new Response(period.message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const name = `hrw-assessments${period.data.from ? `-from-${period.data.from}` : ""}${period.data.to ? `-to-${period.data.to}` : ""}.csv`;
  return csvResponse({ request, columns: HRW_REPORT_COLUMNS, rows: mapRows(hrwReportRows(getDb(), period.data), hrwReportRow), filename: name });
}
