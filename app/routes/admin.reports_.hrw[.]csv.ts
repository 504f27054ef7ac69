import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { HRW_REPORT_COLUMNS, hrwReportRow, listHrwAssessments } from "~/models/hrw-assessment.server";
import { toCsv } from "~/utils/csv";
import { readHrwPeriod } from "~/schemas/hrw";

/** The regulator's audit as a CSV download, for the same period as the page (admins only). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const period = readHrwPeriod(new URL(request.url));
  if (!period.success) return new Response(period.message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const rows = (await listHrwAssessments(getDb(), period.data)).map(hrwReportRow);
  const name = `hrw-assessments${period.data.from ? `-from-${period.data.from}` : ""}${period.data.to ? `-to-${period.data.to}` : ""}.csv`;
  // The byte-order mark lets spreadsheet programs read the file as UTF-8.
  return new Response(`\uFEFF${toCsv(HRW_REPORT_COLUMNS, rows)}`, {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}"`, "Cache-Control": "no-store" },
  });
}
