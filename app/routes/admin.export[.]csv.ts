import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { organisationToday } from "~/utils/organisation-calendar";
import { roleReadsField } from "~/models/personal-data.server";
import { EXPORT_COLUMNS, listStudentEnrollmentsForExport } from "~/models/report.server";
import { toCsv } from "~/utils/csv";

/** Export Data: every student with their enrolments as a CSV download (admins only). */
export async function loader({ request }: LoaderFunctionArgs) {
  const reader = await requireRole(request, "admin");
  const rows = await listStudentEnrollmentsForExport(getDb());
  const columns = EXPORT_COLUMNS.filter((column) => roleReadsField(reader.role, column));
  const date = organisationToday();
  // The byte-order mark lets spreadsheet programs read the file as UTF-8.
  return new Response(`\uFEFF${toCsv(columns, rows)}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="students-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
