import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { AUDIT_CSV_COLUMNS, auditEntryView, auditRows } from "~/models/audit.server";
import { csvResponse, mapRows } from "~/http/csv-response.server";
import { auditQuery } from "~/schemas/audit";
import { queryObject } from "~/api/http.server";
import { organisationTimestamp, organisationToday } from "~/utils/organisation-calendar";

/**
 * GET /admin/audit.csv with the filters of /admin/audit: every matching entry, oldest first, as
 * a CSV download (administrators) named by the organisation's date. Written a batch at a time,
 * so a long trail never sits whole in memory.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const parsed = auditQuery.safeParse(queryObject(request));
  if (!parsed.success) {
    return new Response(`${parsed.error.issues[0]?.message ?? "Invalid filters"}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const rows = auditRows(getDb(), parsed.data);
  return csvResponse({
    request,
    columns: AUDIT_CSV_COLUMNS,
    // times as the organisation's local time with their UTC offset, so the day shown is its day
    rows: mapRows(rows, (row) => {
      const entry = auditEntryView(row);
      return { ...entry, fields: entry.fields.join(" "), at: organisationTimestamp(entry.at) };
    }),
    filename: `audit-${organisationToday()}.csv`,
  });
}
