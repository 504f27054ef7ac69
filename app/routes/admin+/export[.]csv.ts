import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { exportStudents } from "~/models/report.server";
import { organisationToday } from "~/utils/organisation-calendar";
import { csvResponse } from "~/http/csv-response.server";

/** Export Data: every student with their enrolments as a CSV download (admins only), streamed a batch at a time. */
export async function loader({ request }: LoaderFunctionArgs) {
  const reader = await requireRole(request, "admin");
  const { columns, rows } = await exportStudents(getDb(), { id: reader.id, role: reader.role, client: clientAddress(request) });
  return csvResponse({ request, columns, rows, filename: `students-${organisationToday()}.csv` });
}
