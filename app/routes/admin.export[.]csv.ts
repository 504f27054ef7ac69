import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { exportStudents } from "~/models/report.server";
import { organisationToday } from "~/utils/organisation-calendar";
import { toCsv } from "~/utils/csv";

/** Export Data: every student with their enrolments as a CSV download (admins only). */
export async function loader({ request }: LoaderFunctionArgs) {
  const reader = await requireRole(request, "admin");
  const { columns, rows } = await exportStudents(getDb(), { id: reader.id, role: reader.role, client: clientAddress(request) });
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
