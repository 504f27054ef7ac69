import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { WORKER_CSV_COLUMNS, workerCsvRows } from "~/models/employers/employer-view.server";
import { csvResponse } from "~/http/csv-response.server";
import { organisationToday } from "~/utils/organisation-calendar";

/** GET /employer/workers.csv: the employer's workers, results only for those who share them. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  const rows = await workerCsvRows(getDb(), { id: user.id, role: user.role, client: clientAddress(request) });
  return csvResponse({ request, columns: WORKER_CSV_COLUMNS, rows, filename: `workers-${organisationToday()}.csv` });
}
