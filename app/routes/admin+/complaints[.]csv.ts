import type { LoaderFunctionArgs } from "@remix-run/node";
import { queryObject } from "~/api/http.server";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { COMPLAINT_CSV_COLUMNS, complaintCsvRow, complaintRegisterRows } from "~/models/complaints/complaint.server";
import { complaintListQuery } from "~/schemas/complaint";
import { csvResponse, mapRows } from "~/http/csv-response.server";
import { organisationToday } from "~/utils/organisation-calendar";

/**
 * GET /admin/complaints.csv with the register's filters (administrators): each item, overdue
 * first, its days on the organisation's calendar, named by the organisation's date; every
 * item, read a batch at a time (the page shows the first COMPLAINT_LIST_LIMIT).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin");
  const parsed = complaintListQuery.safeParse(queryObject(request));
  if (!parsed.success) {
    return new Response(`${parsed.error.issues[0]?.message ?? "Invalid filters"}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const rows = mapRows(complaintRegisterRows(getDb(), parsed.data, { id: user.id, role: user.role }), complaintCsvRow);
  return csvResponse({ request, columns: COMPLAINT_CSV_COLUMNS, rows, filename: `complaints-${organisationToday()}.csv` });
}
